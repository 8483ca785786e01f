extension Instructions {
    /// English templates (the keys every language has).
    static let english = #"""
        {
          "direction": {"north": "north", "northeast": "northeast", "east": "east", "southeast": "southeast",
                        "south": "south", "southwest": "southwest", "west": "west", "northwest": "northwest"},
          "modifier": {"left": "left", "right": "right", "sharp left": "sharp left", "sharp right": "sharp right",
                       "slight left": "slight left", "slight right": "slight right", "straight": "straight"},
          "side": {"left": "left", "right": "right"},
          "ordinal": ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"],
          "phrase": {
            "depart": {"default": "Head {direction}", "name": "Head {direction} on {way_name}"},
            "arrive": {"straight": "You have arrived at your destination",
                       "left": "You have arrived at your destination, on the left",
                       "right": "You have arrived at your destination, on the right"},
            "turn": {"default": "Turn {modifier}", "name": "Turn {modifier} onto {way_name}"},
            "turn straight": {"default": "Go straight", "name": "Go straight onto {way_name}"},
            "uturn": {"default": "Make a U-turn", "name": "Make a U-turn onto {way_name}"},
            "continue": {"default": "Continue {modifier}", "name": "Continue {modifier} on {way_name}"},
            "continue straight": {"default": "Continue straight", "name": "Continue on {way_name}"},
            "new name": {"default": "Continue", "name": "Continue onto {way_name}"},
            "end of road": {"default": "Turn {modifier} at the end of the road",
                            "name": "Turn {modifier} onto {way_name} at the end of the road"},
            "fork": {"default": "Keep {side} at the fork", "name": "Keep {side} at the fork onto {way_name}",
                     "destination": "Keep {side} at the fork towards {destination}"},
            "merge": {"default": "Merge {side}", "name": "Merge {side} onto {way_name}"},
            "on ramp": {"default": "Take the ramp on the {side}", "name": "Take the ramp on the {side} onto {way_name}",
                        "destination": "Take the ramp on the {side} towards {destination}"},
            "off ramp": {"default": "Take the exit on the {side}", "name": "Take the exit on the {side} onto {way_name}",
                         "destination": "Take the exit on the {side} towards {destination}"},
            "roundabout": {"default": "Enter the roundabout and take the {exit} exit",
                           "name": "Enter the roundabout and take the {exit} exit onto {way_name}"},
            "ferry": {"default": "Take the ferry", "name": "Take the ferry {way_name}"},
            "leave ferry": {"default": "Leave the ferry", "name": "Leave the ferry onto {way_name}"}
          },
          "unit": {"m": "{n} m", "km": "{n} km", "ft": "{n} ft", "mi": "{n} mi",
                   "minutes": "{n} min", "hours": "{h} h {m} min", "total": "Total: {distance}, {duration}"},
          "voice": {"ahead": "In {distance}, {instruction}", "arrive ahead": "You will arrive at your destination"},
          "role": {"start": "Start", "stop": "Stop", "destination": "Destination"},
          "navigation": "{instruction} in {distance}; {time} and {distance_left} to go, arriving at {arrival}",
          "lowercase": true,
          "decimal": "."
        }
        """#
}
