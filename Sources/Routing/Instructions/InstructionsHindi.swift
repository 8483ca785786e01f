extension Instructions {
    /// Hindi templates, in Devanagari throughout.
    static let hindi = #"""
        {
          "direction": {"north": "उत्तर", "northeast": "उत्तर-पूर्व", "east": "पूर्व", "southeast": "दक्षिण-पूर्व",
                        "south": "दक्षिण", "southwest": "दक्षिण-पश्चिम", "west": "पश्चिम", "northwest": "उत्तर-पश्चिम"},
          "modifier": {"left": "बाएँ", "right": "दाएँ", "sharp left": "तीखा बाएँ", "sharp right": "तीखा दाएँ",
                       "slight left": "हल्का बाएँ", "slight right": "हल्का दाएँ", "straight": "सीधे"},
          "side": {"left": "बाईं ओर", "right": "दाईं ओर"},
          "ordinal": ["पहला", "दूसरा", "तीसरा", "चौथा", "पाँचवाँ", "छठा", "सातवाँ", "आठवाँ", "नौवाँ", "दसवाँ"],
          "phrase": {
            "depart": {"default": "{direction} की ओर चलें", "name": "{way_name} पर {direction} की ओर चलें"},
            "arrive": {"straight": "आप अपने गंतव्य पर पहुँच गए हैं",
                       "left": "आप अपने गंतव्य पर पहुँच गए हैं, जो बाईं ओर है",
                       "right": "आप अपने गंतव्य पर पहुँच गए हैं, जो दाईं ओर है"},
            "turn": {"default": "{modifier} मुड़ें", "name": "{way_name} पर {modifier} मुड़ें"},
            "turn straight": {"default": "सीधे जाएँ", "name": "सीधे {way_name} पर जाएँ"},
            "uturn": {"default": "यू-टर्न लें", "name": "यू-टर्न लेकर {way_name} पर जाएँ"},
            "continue": {"default": "{modifier} चलते रहें", "name": "{way_name} पर {modifier} चलते रहें"},
            "continue straight": {"default": "सीधे चलते रहें", "name": "{way_name} पर चलते रहें"},
            "new name": {"default": "चलते रहें", "name": "{way_name} पर चलते रहें"},
            "end of road": {"default": "सड़क के अंत में {modifier} मुड़ें",
                            "name": "सड़क के अंत में {way_name} पर {modifier} मुड़ें"},
            "fork": {"default": "दोराहे पर {side} रहें", "name": "दोराहे पर {side} रहकर {way_name} पर जाएँ",
                     "destination": "दोराहे पर {destination} की ओर {side} रहें"},
            "merge": {"default": "{side} से सड़क में शामिल हों", "name": "{side} से {way_name} में शामिल हों"},
            "on ramp": {"default": "{side} रैंप लें", "name": "{way_name} के लिए {side} रैंप लें",
                        "destination": "{destination} की ओर {side} रैंप लें"},
            "off ramp": {"default": "{side} निकास लें", "name": "{way_name} के लिए {side} निकास लें",
                         "destination": "{destination} की ओर {side} निकास लें"},
            "roundabout": {"default": "गोलचक्कर में प्रवेश करें और {exit} निकास लें",
                           "name": "गोलचक्कर में प्रवेश करें और {exit} निकास लेकर {way_name} पर जाएँ"},
            "ferry": {"default": "नौका लें", "name": "{way_name} नौका लें"},
            "leave ferry": {"default": "नौका से उतरें", "name": "नौका से उतरकर {way_name} पर जाएँ"}
          },
          "unit": {"m": "{n} मीटर", "km": "{n} किमी", "ft": "{n} फ़ुट", "mi": "{n} मील",
                   "minutes": "{n} मिनट", "hours": "{h} घंटे {m} मिनट", "total": "कुल: {distance}, {duration}"},
          "voice": {"ahead": "{distance} बाद, {instruction}", "arrive ahead": "आप अपने गंतव्य पर पहुँचेंगे"},
          "role": {"start": "प्रस्थान", "stop": "पड़ाव", "destination": "गंतव्य"},
          "navigation": "{distance} बाद: {instruction}; {time} और {distance_left} बाकी, पहुँचने का समय {arrival}",
          "lowercase": false,
          "decimal": "."
        }
        """#
}
