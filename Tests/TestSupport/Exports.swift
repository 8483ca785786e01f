// The tests write their OSM fixtures with OSMWriter's PBF and XML writers.
@_exported import OSMWriter
