"""The OSRM Python bindings' answers as plain Python values, for the peer-osrm-*.py scripts
(imported from the scripts' own folder)."""


def plain(value):
    """The bindings' objects and arrays (and what they hold) as Python's dicts and lists."""
    kind = type(value).__name__
    if kind == "Object":
        return {key: plain(value[key]) for key in value}
    if kind == "Array":
        return [plain(item) for item in value]
    return value
