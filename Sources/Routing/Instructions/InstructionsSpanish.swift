extension Instructions {
    /// Spanish templates.
    static let spanish = #"""
        {
          "direction": {"north": "norte", "northeast": "noreste", "east": "este", "southeast": "sureste",
                        "south": "sur", "southwest": "suroeste", "west": "oeste", "northwest": "noroeste"},
          "modifier": {"left": "a la izquierda", "right": "a la derecha", "sharp left": "bruscamente a la izquierda",
                       "sharp right": "bruscamente a la derecha", "slight left": "ligeramente a la izquierda",
                       "slight right": "ligeramente a la derecha", "straight": "recto"},
          "side": {"left": "a la izquierda", "right": "a la derecha"},
          "ordinal": ["primera", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava", "novena",
                      "décima"],
          "phrase": {
            "depart": {"default": "Dirígete al {direction}", "name": "Dirígete al {direction} por {way_name}"},
            "arrive": {"straight": "Has llegado a tu destino",
                       "left": "Has llegado a tu destino, a la izquierda",
                       "right": "Has llegado a tu destino, a la derecha"},
            "turn": {"default": "Gira {modifier}", "name": "Gira {modifier} en {way_name}"},
            "turn straight": {"default": "Sigue recto", "name": "Sigue recto por {way_name}"},
            "uturn": {"default": "Cambia de sentido", "name": "Cambia de sentido en {way_name}"},
            "continue": {"default": "Continúa {modifier}", "name": "Continúa {modifier} por {way_name}"},
            "continue straight": {"default": "Continúa recto", "name": "Continúa por {way_name}"},
            "new name": {"default": "Continúa", "name": "Continúa por {way_name}"},
            "end of road": {"default": "Al final de la calle, gira {modifier}",
                            "name": "Al final de la calle, gira {modifier} en {way_name}"},
            "fork": {"default": "En la bifurcación, mantente {side}",
                     "name": "En la bifurcación, mantente {side} por {way_name}",
                     "destination": "En la bifurcación, mantente {side} en dirección a {destination}"},
            "merge": {"default": "Incorpórate {side}", "name": "Incorpórate {side} a {way_name}"},
            "on ramp": {"default": "Toma la rampa {side}", "name": "Toma la rampa {side} hacia {way_name}",
                        "destination": "Toma la rampa {side} en dirección a {destination}"},
            "off ramp": {"default": "Toma la salida {side}", "name": "Toma la salida {side} hacia {way_name}",
                         "destination": "Toma la salida {side} en dirección a {destination}"},
            "roundabout": {"default": "Entra en la rotonda y toma la {exit} salida",
                           "name": "Entra en la rotonda y toma la {exit} salida hacia {way_name}"},
            "ferry": {"default": "Toma el ferri", "name": "Toma el ferri {way_name}"},
            "leave ferry": {"default": "Desembarca del ferri", "name": "Desembarca del ferri y sigue por {way_name}"}
          },
          "unit": {"m": "{n} m", "km": "{n} km", "ft": "{n} pies", "mi": "{n} mi",
                   "minutes": "{n} min", "hours": "{h} h {m} min", "total": "Total: {distance}, {duration}"},
          "voice": {"ahead": "En {distance}, {instruction}", "arrive ahead": "Llegarás a tu destino"},
          "role": {"start": "Salida", "stop": "Parada", "destination": "Destino"},
          "navigation": "{instruction} en {distance}; quedan {time} y {distance_left}, llegada a las {arrival}",
          "lowercase": true,
          "decimal": ","
        }
        """#
}
