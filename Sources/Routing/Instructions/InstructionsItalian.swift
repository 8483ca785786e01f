extension Instructions {
    /// Italian templates.
    static let italian = #"""
        {
          "direction": {"north": "nord", "northeast": "nord-est", "east": "est", "southeast": "sud-est",
                        "south": "sud", "southwest": "sud-ovest", "west": "ovest", "northwest": "nord-ovest"},
          "modifier": {"left": "a sinistra", "right": "a destra", "sharp left": "decisamente a sinistra",
                       "sharp right": "decisamente a destra", "slight left": "leggermente a sinistra",
                       "slight right": "leggermente a destra", "straight": "dritto"},
          "side": {"left": "a sinistra", "right": "a destra"},
          "ordinal": ["prima", "seconda", "terza", "quarta", "quinta", "sesta", "settima", "ottava", "nona", "decima"],
          "phrase": {
            "depart": {"default": "Dirigiti verso {direction}", "name": "Dirigiti verso {direction} su {way_name}"},
            "arrive": {"straight": "Sei arrivato a destinazione",
                       "left": "Sei arrivato a destinazione, sulla sinistra",
                       "right": "Sei arrivato a destinazione, sulla destra"},
            "turn": {"default": "Svolta {modifier}", "name": "Svolta {modifier} in {way_name}"},
            "turn straight": {"default": "Prosegui dritto", "name": "Prosegui dritto su {way_name}"},
            "uturn": {"default": "Fai inversione a U", "name": "Fai inversione a U su {way_name}"},
            "continue": {"default": "Continua {modifier}", "name": "Continua {modifier} su {way_name}"},
            "continue straight": {"default": "Continua dritto", "name": "Continua su {way_name}"},
            "new name": {"default": "Continua", "name": "Continua su {way_name}"},
            "end of road": {"default": "Alla fine della strada, svolta {modifier}",
                            "name": "Alla fine della strada, svolta {modifier} in {way_name}"},
            "fork": {"default": "Al bivio, tieniti {side}", "name": "Al bivio, tieniti {side} su {way_name}",
                     "destination": "Al bivio, tieniti {side} in direzione {destination}"},
            "merge": {"default": "Immettiti {side}", "name": "Immettiti {side} su {way_name}"},
            "on ramp": {"default": "Prendi la rampa {side}", "name": "Prendi la rampa {side} verso {way_name}",
                        "destination": "Prendi la rampa {side} in direzione {destination}"},
            "off ramp": {"default": "Prendi l'uscita {side}", "name": "Prendi l'uscita {side} verso {way_name}",
                         "destination": "Prendi l'uscita {side} in direzione {destination}"},
            "roundabout": {"default": "Entra nella rotatoria e prendi la {exit} uscita",
                           "name": "Entra nella rotatoria e prendi la {exit} uscita verso {way_name}"},
            "ferry": {"default": "Prendi il traghetto", "name": "Prendi il traghetto {way_name}"},
            "leave ferry": {"default": "Scendi dal traghetto", "name": "Scendi dal traghetto e prosegui su {way_name}"}
          },
          "unit": {"m": "{n} m", "km": "{n} km", "ft": "{n} piedi", "mi": "{n} mi",
                   "minutes": "{n} min", "hours": "{h} h {m} min", "total": "Totale: {distance}, {duration}"},
          "voice": {"ahead": "Tra {distance}, {instruction}", "arrive ahead": "Arriverai a destinazione"},
          "role": {"start": "Partenza", "stop": "Tappa", "destination": "Destinazione"},
          "navigation": "{instruction} tra {distance}; mancano {time} e {distance_left}, arrivo alle {arrival}",
          "lowercase": true,
          "decimal": ","
        }
        """#
}
