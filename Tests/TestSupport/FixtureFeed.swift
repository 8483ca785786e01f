/// A small GTFS feed written by hand around Roppongi, Tokyo (made-up ids, real places), for the
/// importer's, the renderer's and the app's tests.
public enum FixtureFeed {
    /// A small subway and bus network: a station with two platforms and an entrance, a subway
    /// line run both ways and short-turned (one line drawn), a bus line with a shape, a stop
    /// whose quoted name holds a comma and quotes, and a translation.
    public static let files: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nmetro,Example Metro,https://example.org,Asia/Tokyo\n",
        "stops.txt": """
        \u{FEFF}stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station\r
        S1,A-01,Roppongi,35.6628,139.7313,1,\r
        S1N,,Roppongi,35.6627,139.7312,0,S1\r
        S1S,,Roppongi,35.6629,139.7314,0,S1\r
        S1E,,Roppongi Exit 3,35.6625,139.7310,2,S1\r
        S2,A-02,Azabu-Juban,35.6545,139.7372,0,\r
        S3,A-03,Akabanebashi,35.6550,139.7435,0,\r
        B1,, "Corner of ""Main"", 1st" ,35.6600,139.7400,0,\r
        B2,,Hill Stop,35.6610,139.7450,0,\r
        X9,,Unused,35.7,139.8,0,\r

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type,route_color
        E,metro,E,Oedo Line,1,CF3366
        B,metro,,Hill Bus,3,
        G,metro,,Gondola,6,
        """,
        "trips.txt": """
        route_id,service_id,trip_id,shape_id
        E,weekday,e1,
        E,weekday,e2,
        E,weekday,e3,
        B,weekday,b1,hill
        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        e1,05:00:00,05:00:00,S1N,1
        e1,05:03:00,05:03:00,S2,2
        e1,05:06:00,05:06:00,S3,3
        e2,05:10:00,05:10:00,S3,10
        e2,05:13:00,05:13:00,S2,20
        e2,05:16:00,05:16:00,S1S,30
        e3,05:20:00,05:20:00,S2,1
        e3,05:23:00,05:23:00,S3,2
        b1,06:00:00,06:00:00,B1,2
        b1,06:05:00,06:05:00,B2,1
        """,
        "shapes.txt": """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
        hill,35.6610,139.7450,3
        hill,35.6600,139.7400,1
        hill,35.6605,139.7425,2
        """,
        "translations.txt": """
        table_name,field_name,language,translation,field_value
        stops,stop_name,ja,六本木,Roppongi
        routes,route_long_name,ja,大江戸線,Oedo Line
        """,
    ]

    /// The feed as a zip, its files in `folder` inside the archive (feeds are zipped both ways).
    public static func zip(_ files: [String: String] = files, in folder: String = "") -> [UInt8] {
        ZipWriter.stored(files.sorted { $0.key < $1.key }.map { (folder + $0.key, Array($0.value.utf8)) })
    }
}
