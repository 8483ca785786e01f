import Foundation

/// A small GTFS timetable written by hand over the fixture store's Helsinki street grid
/// (made-up lines, real time zone): tram 1 from Ruoholahti (A) by Kamppi (B) to Hakaniemi (C),
/// Kamppi's time left blank to be interpolated, one run after midnight (24:10); bus 2 from
/// Kamppi to Kallio (D, beyond the grid's west edge), once at 08:08 and every 15 minutes from
/// 09:00 to 10:00 and 17:00 to 17:30, four minutes a ride; weekdays of
/// 2024 but Monday 6 May (a holiday in `calendar_dates.txt`); two minutes to change at Kamppi.
/// (The fixture's streets do not meet at their crossings, so walks there are straight lines.)
public enum FixtureTimetable {
    public static let files: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nhsl,Example Transit,https://example.org,Europe/Helsinki\n",
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        A,Ruoholahti,60.1650,24.9360
        B,Kamppi,60.1700,24.9400
        C,Hakaniemi,60.1780,24.9500
        D,Kallio,60.1790,24.9320
        """,
        "routes.txt": """
        route_id,route_short_name,route_long_name,route_type,route_color,route_text_color
        1,1,Ruoholahti–Hakaniemi,0,00985F,FFFFFF
        2,2,Kamppi–Kallio,3,,
        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        wk,1,1,1,1,1,0,0,20240101,20241231
        """,
        "calendar_dates.txt": """
        service_id,date,exception_type
        wk,20240506,2
        """,
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign
        1,wk,t1,Hakaniemi
        1,wk,t2,Hakaniemi
        2,wk,t3,Kallio
        2,wk,t4,Kallio
        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        t1,08:00:00,08:00:00,A,1
        t1,,,B,2
        t1,08:10:00,08:10:00,C,3
        t2,24:10:00,24:10:00,A,1
        t2,,,B,2
        t2,24:20:00,24:20:00,C,3
        t3,08:08:00,08:08:00,B,1
        t3,08:12:00,08:12:00,D,2
        t4,09:00:00,09:00:00,B,1
        t4,09:04:00,09:04:00,D,2
        """,
        "frequencies.txt": """
        trip_id,start_time,end_time,headway_secs
        t4,09:00:00,10:00:00,900
        t4,17:00:00,17:30:00,900
        """,
        "transfers.txt": """
        from_stop_id,to_stop_id,transfer_type,min_transfer_time
        B,B,2,120
        """,
    ]

    /// The feed as a zip.
    public static func zip(_ files: [String: String] = files) -> [UInt8] { FixtureFeed.zip(files) }
}
