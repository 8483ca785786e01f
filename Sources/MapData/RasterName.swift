/// The world rasters the store keeps beside it, in plate carrée over the whole world.
public enum RasterName: String, Sendable, Hashable, Codable, CaseIterable {
    /// NASA's Blue Marble: the imagery of the satellite and hybrid maps.
    case blueMarble = "bmng"
    /// The shaded relief of the terrain map.
    case shadedRelief = "shadedrelief"
    /// ETOPO1 elevation and bathymetry (NOAA).
    case etopo1
}
