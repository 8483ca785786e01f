#ifndef OPENMAPS_CJPEG_SHIM_H
#define OPENMAPS_CJPEG_SHIM_H
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// libjpeg reports errors by calling error_exit, which by default ends the process; Swift
// cannot catch a longjmp, so decoding happens here, with the jump kept inside C.

struct openmaps_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void openmaps_jpeg_error_exit(j_common_ptr info) {
    struct openmaps_jpeg_error *error = (struct openmaps_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void openmaps_jpeg_silence(j_common_ptr info, int level) { (void)info; (void)level; }

/// Decodes a baseline or progressive JPEG from memory into 8-bit RGB rows (3 bytes a pixel,
/// no padding), allocated with malloc: free it with free(). Returns NULL with a message in
/// `error` (at most `error_size` bytes) when the data is not a decodable JPEG.
static inline unsigned char *openmaps_jpeg_decode(
    const unsigned char *data, unsigned long size, int *width, int *height, char *error, int error_size) {
    struct jpeg_decompress_struct info;
    struct openmaps_jpeg_error failure;
    unsigned char *volatile pixels = NULL;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = openmaps_jpeg_error_exit;
    failure.manager.emit_message = openmaps_jpeg_silence;
    failure.message[0] = 0;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        snprintf(error, (size_t)error_size, "%s", failure.message);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 3;
    pixels = malloc(stride * info.output_height);
    if (pixels == NULL) {
        snprintf(error, (size_t)error_size, "out of memory for %ux%u pixels", info.output_width, info.output_height);
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return pixels;
}
#endif
