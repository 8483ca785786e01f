#!/usr/bin/env python3
"""One seed link's card for the demo page, from the answer `openmaps open --answer` wrote.

    python3 scripts/demo-card.py NAME DIR 'COMMAND' 'WHAT OPEN PRINTED' >> fragment.html

The card shows the link, what it asks for, the picture, the places found, the directions'
ends, the back button, the notes and the credits, all read from DIR/NAME.json.
"""
import html
import json
import sys


def esc(text):
    return html.escape(str(text), quote=True)


def position(place):
    point = place["position"]
    return f"{point['latitude']:.5f}, {point['longitude']:.5f}"


def main():
    name, folder, command, printed = sys.argv[1:5]
    with open(f"{folder}/{name}.json", encoding="utf-8") as file:
        answer = json.load(file)
    rows = []
    rows.append(("Asks for", esc(answer["asks"])))
    if answer["places"]:
        items = "".join(
            f"<li><b>{esc(place['name'])}</b> <span class=dim>{esc(place['why'])} · {position(place)}"
            f"{' · ' + esc(place['source']) if place.get('source') else ''}</span></li>"
            for place in answer["places"]
        )
        rows.append(("Found", f"<ol>{items}</ol>"))
    if answer["routeEnds"]:
        items = []
        for end in answer["routeEnds"]:
            place = end.get("place")
            where = (
                f"<b>{esc(place['name'])}</b> <span class=dim>{position(place)}</span>"
                if place
                else "<span class=dim>not placed</span>"
            )
            items.append(f"<li>{esc(end['role'])}: {where}</li>")
        rows.append(("Route", f"<ul>{''.join(items)}</ul>"))
    if answer.get("callback"):
        callback = answer["callback"]
        rows.append(
            ("Back button", f"“{esc(callback['source'])}” opens <code>{esc(callback['success'])}</code> when tapped")
        )
    if answer["notes"]:
        items = "".join(
            f"<li><span class=code>{esc(note['code'])}</span> {esc(note['message'])}</li>" for note in answer["notes"]
        )
        rows.append(("Notes", f"<ul>{items}</ul>"))
    rows.append(("Data", esc(" · ".join(answer["credits"]))))
    details = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows)
    form = answer.get("form") or ""
    print(
        f'<article class=card id="{esc(name)}">'
        f'<a class=picture href="{esc(name)}.png"><img src="{esc(name)}.png" alt="{esc(answer["asks"])}" loading=lazy></a>'
        f"<div class=details><h3>{esc(name)} <span class=form>{esc(form)}</span></h3>"
        f"<p class=link><code>{esc(answer.get('link') or '')}</code></p><dl>{details}</dl>"
        f"<details><summary>Command</summary><pre>$ {esc(command)}\n{esc(printed)}</pre></details></div></article>"
    )


if __name__ == "__main__":
    main()
