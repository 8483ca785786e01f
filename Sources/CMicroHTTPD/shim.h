#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

/* MHD_start_daemon is variadic, which Swift cannot call: this starts a daemon with a pool of
   `threads` threads polled by epoll that may suspend connections while their answer is made
   elsewhere, listening on `host` (an IPv4 address) and `port`, with its limits set:
   connections at once (in all and from one address, 0 for no limit of its own), the seconds a
   connection may stay silent before its request's headers are in, and each connection's
   memory. `completed` is called when a request ends, with `context`. Returns NULL when the
   address is not IPv4 or the daemon cannot start. */
static inline struct MHD_Daemon *openmaps_mhd_start(
    const char *host, unsigned short port, unsigned int threads, unsigned int connection_limit,
    unsigned int per_address_limit, unsigned int header_timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback handler, void *context, MHD_RequestCompletedCallback completed) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, port, NULL,
        NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, header_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_END);
}

/* MHD_set_connection_option is variadic too: this sets how many seconds `connection` may stay
   silent from now on. */
static inline void openmaps_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/* The port a daemon listens on (the one the system chose for port 0). */
static inline unsigned short openmaps_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* A response holding a copy of `size` bytes at `data`. */
static inline struct MHD_Response *openmaps_mhd_response_copy(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}
