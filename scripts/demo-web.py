#!/usr/bin/python3
"""The last pictures of `make demo`: every link of a file opened in the served web app, in
headless Chromium drawing WebGL in software (SwiftShader), so that the page draws it on
MapLibre GL JS and the vector tiles as a browser with a GPU would. Saves one screenshot a link
into DIR/web/ and DIR/web.html showing them, with the engine, camera, bearing and tilt the page
reports; exits 1 when a page fails to draw on MapLibre.

Usage: scripts/demo-web.py BASE_URL LINKS_FILE DIR   (e.g. http://127.0.0.1:8080 Examples/seed-links.txt demo)
Needs Debian's chromium, chromium-driver and python3-selenium.
"""
import html
import os
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def wait_for(predicate, seconds):
    end = time.time() + seconds
    while time.time() < end:
        try:
            value = predicate()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.25)
    return None


def main():
    base, links_file, out = sys.argv[1], sys.argv[2], sys.argv[3]
    links = [line.strip() for line in open(links_file, encoding="utf-8")
             if line.strip() and not line.startswith("#")]
    os.makedirs(os.path.join(out, "web"), exist_ok=True)
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                     "--lang=en-US", "--enable-unsafe-swiftshader", "--use-gl=angle", "--use-angle=swiftshader",
                     "--ignore-gpu-blocklist"]:
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    browser.set_page_load_timeout(60)
    figures, failed = [], 0
    try:
        for number, link in enumerate(links, 1):
            browser.get(base + "/open?url=" + urllib.parse.quote(link, safe=""))
            wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)
            # Drawn when MapLibre is idle: its tiles, glyphs (CJK ones are made on first use) and
            # pictures of labels all in.
            browser.execute_script(
                "window.demoIdle = !window.openmapsMap; if (window.openmapsMap) {"
                " window.openmapsMap.once('idle', function () { window.demoIdle = true; });"
                " window.openmapsMap.triggerRepaint(); }")
            wait_for(lambda: browser.execute_script("return window.demoIdle"), 90)
            time.sleep(1)
            engine, centre, zoom, bearing, tilt = browser.execute_script(
                "var d = document.body.dataset; return [d.engine, d.center, d.zoom, d.bearing, d.tilt]")
            status = browser.execute_script("return document.getElementById('status').textContent")
            name = "%02d.png" % number
            browser.save_screenshot(os.path.join(out, "web", name))
            facts = "%s at %s, zoom %s, bearing %s°, tilt %s°" % (engine, centre, zoom, bearing, tilt)
            print("%2d %s: %s%s" % (number, link, facts, " (" + status + ")" if status else ""), flush=True)
            if engine != "maplibre":
                failed += 1
            figures.append('<figure><img src="web/%s" alt="" loading="lazy"><figcaption><code>%s</code><br>%s%s'
                           '</figcaption></figure>' % (name, html.escape(link), html.escape(facts),
                                                       "<br>" + html.escape(status) if status else ""))
    finally:
        browser.get("about:blank")
        browser.quit()
    with open(os.path.join(out, "web.html"), "w", encoding="utf-8") as page:
        page.write('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>OpenMaps web app demo</title>'
                   '<style>body{font:15px "Noto Sans",sans-serif;margin:24px}figure{margin:0 0 32px}'
                   'img{max-width:100%;border:1px solid #ccc}code{word-break:break-all}</style></head><body>'
                   '<h1>The web app on every seed link</h1><p>Each link opened through <code>/open?url=LINK</code> '
                   'of <code>openmaps serve</code>, drawn by MapLibre GL JS on the vector tiles (WebGL in software, '
                   'SwiftShader). <a href="index.html">The rendered maps</a>.</p>' + "".join(figures) + '</body></html>')
    print("wrote %s (%d links, %d not on MapLibre)" % (os.path.join(out, "web.html"), len(links), failed))
    sys.exit(1 if failed else 0)


main()
