#!/usr/bin/python3
"""The web app in headless Chromium, on a real server over a real extract.

Imports central Monaco (data/test-extracts/monaco-centre.osm.pbf) into a temporary store,
starts `openmaps serve` on a free port, and opens the seed document's kinds of link in the
browser: a display link, a search link, a directions link, an x-callback link; then types a
search, switches the map type and the scheme, asks for share links and walks the page with
the keyboard. Each check prints a line; screenshots go to .build/browser-shots/ to be looked
at. Exits 1 on the first failed check.

Usage: Tests/browser/webapp_test.py [path/to/openmaps]   (default .build/debug/openmaps)
Needs Debian's chromium, chromium-driver and python3-selenium, and libjs-leaflet.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zipfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/openmaps")
EXTRACT = os.path.join(ROOT, "data/test-extracts/monaco-centre.osm.pbf")
SHOTS = os.path.join(ROOT, ".build/browser-shots")
# Where `make data` installs the data and MapLibre GL JS, as `make test` runs it.
os.environ.setdefault("OPENMAPS_DATA", os.path.join(ROOT, ".data"))

failures = 0


def check(condition, what):
    global failures
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures += 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, seconds=30):
    end = time.time() + seconds
    while time.time() < end:
        try:
            value = predicate()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.2)
    return None


def main():
    os.makedirs(SHOTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="openmaps-browser-")
    store = os.path.join(work, "store.sqlite")
    subprocess.run([BINARY, "import", EXTRACT, "--store", store], check=True, capture_output=True)
    feed = os.path.join(work, "monaco-bus.zip")
    write_feed(feed)
    subprocess.run([BINARY, "import", feed, "--store", store], check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen(
        [BINARY, "serve", "--port", str(port), "--store", store, "--cache", os.path.join(work, "cache"), "--threads", "4"],
        stderr=subprocess.PIPE, text=True)
    base = "http://127.0.0.1:%d" % port
    try:
        check(wait_for(lambda: urllib.request.urlopen(base + "/health").status == 200, 20), "the server answers /health")
        options = Options()
        # Without WebGL: the web app falls back on Leaflet and the PNG tiles.
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-webgl", "--disable-dev-shm-usage",
                         "--window-size=1280,800", "--lang=en-US"]:
            options.add_argument(argument)
        browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        browser.set_page_load_timeout(60)
        try:
            run(browser, base)
        finally:
            browser.quit()
        # The vector map needs WebGL: SwiftShader draws it without a GPU.
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                         "--lang=en-US", "--enable-unsafe-swiftshader", "--use-gl=angle", "--use-angle=swiftshader",
                         "--ignore-gpu-blocklist"]:
            options.add_argument(argument)
        browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        browser.set_page_load_timeout(60)
        try:
            vector_map(browser, base)
        finally:
            # Leave the WebGL pages first: Chromium then shuts its software GPU down at once.
            browser.get("about:blank")
            browser.quit()
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        check(server.returncode == 0, "the server stops cleanly on SIGTERM (exit %s)" % server.returncode)
    print("%d failed" % failures if failures else "all browser checks passed; screenshots in " + SHOTS)
    sys.exit(1 if failures else 0)


def write_feed(path):
    """A made-up bus line across central Monaco, every 10 minutes all day, every day to 2035."""
    files = {
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nm,Example Bus,https://example.org,Europe/Monaco\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nC,Casino,43.7393,7.4275\nP,Port,43.7348,7.4218\nF,Fontvieille,43.7290,7.4160\n",
        "routes.txt": "route_id,route_short_name,route_long_name,route_type,route_color\n1,1,Casino–Fontvieille,3,D7262C\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                        "all,1,1,1,1,1,1,1,20160101,20351231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\n1,all,b,Fontvieille\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                          "b,00:00:00,00:00:00,C,1\nb,00:03:00,00:03:00,P,2\nb,00:07:00,00:07:00,F,3\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nb,00:00:00,24:00:00,600\n",
    }
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)


def open_page(browser, url):
    browser.get(url)
    return wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)


def text(browser, selector):
    return browser.find_element(By.CSS_SELECTOR, selector).text


def tiles_loaded(browser):
    return browser.execute_script(
        "const t = [...document.querySelectorAll('.leaflet-tile')];"
        "return t.length > 0 && t.every(i => i.complete) && t.filter(i => i.naturalWidth > 0).length;")


def shot(browser, name):
    """A screenshot once the map has drawn: Leaflet's tiles loaded, or MapLibre idle."""
    wait_for(lambda: browser.execute_script(
        "return window.openmapsMap ? window.openmapsMap.loaded() && window.openmapsMap.areTilesLoaded() : null")
        if browser.execute_script("return !!window.openmapsMap") else tiles_loaded(browser), 60)
    browser.save_screenshot(os.path.join(SHOTS, name + ".png"))


def center(browser):
    lat, lng = browser.execute_script("return document.body.dataset.center").split(",")
    return float(lat), float(lng)


def vector_idle(browser):
    return wait_for(lambda: browser.execute_script("return document.body.getAttribute('data-idle')"), 60)


def distinct_colours(browser):
    """How many different colours the map's canvas shows (sampled), as a sign it drew."""
    return browser.execute_script("""
        var canvas = document.querySelector('canvas.maplibregl-canvas');
        var copy = document.createElement('canvas'); copy.width = 64; copy.height = 40;
        copy.getContext('2d').drawImage(canvas, 0, 0, 64, 40);
        var data = copy.getContext('2d').getImageData(0, 0, 64, 40).data, seen = {};
        for (var i = 0; i < data.length; i += 4) { seen[data[i] + ',' + data[i + 1] + ',' + data[i + 2]] = 1; }
        return Object.keys(seen).length;""")


def vector_map(browser, base):
    """The vector tiles drawn by MapLibre GL JS in the styles OpenMaps makes of its palette."""
    browser.get(base + "/vector#15/43.7347/7.4206/30/60")
    check(vector_idle(browser) and not browser.execute_script("return document.body.getAttribute('data-error')"),
          "the vector map loads its style, tiles, glyphs and sprite without an error")
    camera = browser.execute_script("var m = window.openmapsMap; return [m.getBearing(), m.getPitch()]")
    check(camera == [30, 60], "the vector map is turned and tilted as the camera asks (%s)" % camera)
    extruded = browser.execute_script(
        "return window.openmapsMap.queryRenderedFeatures({layers: ['building-3d']}).length")
    check(extruded > 20, "3D buildings rise from their heights (%d drawn)" % extruded)
    labels = browser.execute_script("return window.openmapsMap.queryRenderedFeatures({layers: ['road-names', 'poi']}).length")
    check(labels > 5, "street names and points of interest are labelled (%d)" % labels)
    check(distinct_colours(browser) > 20, "the canvas shows a drawn map")
    shot(browser, "vector-tilted")
    light = browser.execute_script(
        "return window.openmapsMap.getStyle().layers.find(function (l) { return l.id == 'background'; }).paint")
    browser.get(base + "/vector?scheme=dark&layers=transit#15/43.7347/7.4206/0/0")
    vector_idle(browser)
    dark = browser.execute_script(
        "return window.openmapsMap.getStyle().layers.find(function (l) { return l.id == 'background'; }).paint")
    check(light != dark and dark["background-color"].upper() == "#242F3E",
          "the dark scheme draws the raster map's dark palette (%s)" % dark)
    check(browser.execute_script(
        "return !!window.openmapsMap.getStyle().layers.find(function (l) { return l.id == 'transit-lines'; })"),
          "layers=transit adds the transit layer")
    shot(browser, "vector-dark")

    # The web app itself on MapLibre where WebGL is drawn: a search link turned and tilted.
    link = urllib.parse.quote("comgooglemaps://?q=restaurant&center=43.7347,7.4206&zoom=16", safe="")
    browser.get(base + "/open?url=" + link + "&bearing=30&tilt=50")
    wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)
    vector_idle_app = wait_for(lambda: browser.execute_script(
        "return window.openmapsMap && window.openmapsMap.loaded() && window.openmapsMap.areTilesLoaded()"), 60)
    engine = browser.execute_script(
        "return [document.body.dataset.engine, document.body.dataset.bearing, document.body.dataset.tilt]")
    check(engine == ["maplibre", "30", "50"] and vector_idle_app,
          "the web app draws the link on MapLibre, turned and tilted as asked (%s)" % engine)
    pins = browser.find_elements(By.CSS_SELECTOR, ".maplibregl-marker.pin-glyph")
    check(len(pins) >= 3, "its results are numbered pins on the vector map (%d)" % len(pins))
    shot(browser, "app-vector-search")
    link = urllib.parse.quote("comgooglemaps://?saddr=43.7384,7.4246&daddr=43.7311,7.4197&directionsmode=walking",
                              safe="")
    browser.get(base + "/open?url=" + link)
    wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)
    drawn = wait_for(lambda: browser.execute_script(
        "return window.openmapsMap.queryRenderedFeatures({layers: ['drawn-lines', 'drawn-dashed']}).length"), 30)
    check(bool(drawn), "a directions link draws its route on the vector map (%s segments)" % drawn)
    # The route fits whole in the part of the map the controls leave (the zoom buttons on the
    # left, the attribution along the bottom).
    fit = browser.execute_script("""
        var m = window.openmapsMap, p = m.getPadding(), c = m.getContainer(), out = 0, all = 0;
        m.getSource('drawn-lines').serialize().data.features.forEach(function (f) {
          f.geometry.coordinates.forEach(function (point) {
            var at = m.project(point); all++;
            if (at.x < p.left || at.x > c.clientWidth - p.right || at.y < p.top || at.y > c.clientHeight - p.bottom) out++;
          }); });
        return [p.left, p.bottom, all, out];""")
    check(fit[0] > 20 and fit[2] > 10 and fit[3] == 0,
          "the route fits in the part the controls leave (padding left %s, bottom %s; %s of %s points outside)"
          % (fit[0], fit[1], fit[3], fit[2]))
    shot(browser, "app-vector-route")
    hindi_labels(browser, base)
    floor_picker(browser, base)
    isochrones(browser, base)


# The label's pixels around its point on the vector map (MapLibre's canvas) and on the PNG map
# of the same view (/staticmap, as big as the canvas up to 640 points), as luma, w × h each.
LABEL_CROPS = """
var done = arguments[arguments.length - 1], point = arguments[0], w = 120, h = 36;
var m = window.openmapsMap, at = m.project(point), centre = m.project(m.getCenter());
function grab(source, width, height) {
  var copy = document.createElement('canvas'); copy.width = width; copy.height = height;
  var context = copy.getContext('2d'); context.drawImage(source, 0, 0, width, height); return context; }
function luma(context, x, y) {
  var d = context.getImageData(Math.round(x - w / 2), Math.round(y - h / 2), w, h).data, out = [];
  for (var i = 0; i < d.length; i += 4) out.push(Math.round(0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]));
  return out; }
var canvas = m.getCanvas(), width = canvas.clientWidth, height = canvas.clientHeight;
var vector = luma(grab(canvas, width, height), at.x, at.y);
var sw = Math.min(width, 640), sh = Math.min(height, 640), image = new Image(), c = m.getCenter();
image.onload = function () {
  done([vector, luma(grab(image, sw, sh), sw / 2 + at.x - centre.x, sh / 2 + at.y - centre.y), w, h]); };
image.onerror = function () { done(null); };
image.src = '/staticmap?center=' + c.lat + ',' + c.lng + '&zoom=' + (m.getZoom() + 1) + '&size=' + sw + 'x' + sh +
  '&language=hi';
"""


def text_overlap(vector, raster, w, h, shift=3):
    """How much of the text two label crops share: intersection over union of their dark
    pixels (luma under 120), at the best of the offsets up to `shift` pixels."""
    def mask(values, dx, dy):
        return {(x, y) for y in range(shift, h - shift) for x in range(shift, w - shift)
                if values[(y + dy) * w + x + dx] < 120}
    reference = mask(raster, 0, 0)
    best = 0.0
    for dx in range(-shift, shift + 1):
        for dy in range(-shift, shift + 1):
            drawn = mask(vector, dx, dy)
            best = max(best, len(reference & drawn) / max(1, len(reference | drawn)))
    return best, len(reference)


def hindi_labels(browser, base):
    """A Devanagari place name on the vector map, the page in Hindi: the server's shaped picture
    of it matches the PNG map's label by pixels; MapLibre's own text would not."""
    link = urllib.parse.quote("comgooglemaps://?center=43.7311,7.4198&zoom=15", safe="")
    browser.get(base + "/open?hl=hi&url=" + link)
    wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)
    found = wait_for(lambda: browser.execute_script("""
        var m = window.openmapsMap;
        var f = m.queryRenderedFeatures({layers: ['places']}).filter(function (f) {
          return /[\\u0900-\\u097F]/.test(f.properties['name:hi'] || ''); });
        if (!f.length || !m.hasImage('label:place:' + f[0].properties['name:hi']) || !m.loaded()) return null;
        return [f[0].properties['name:hi'], f[0].geometry.coordinates];"""), 60)
    check(bool(found), "the page in Hindi draws a Devanagari place name as the server's picture (%s)"
          % (found and found[0]))
    if not found:
        return
    name, point = found
    time.sleep(1)
    wait_for(lambda: browser.execute_script("return window.openmapsMap.loaded()"), 30)
    browser.set_script_timeout(60)
    vector, raster, w, h = browser.execute_async_script(LABEL_CROPS, point)
    shaped, ink = text_overlap(vector, raster, w, h)
    shot(browser, "app-vector-hindi")
    # The same name written by MapLibre's own text engine, letter by letter.
    browser.execute_script("""var m = window.openmapsMap; m.setLayoutProperty('places', 'icon-image', '');
        m.setLayoutProperty('places', 'text-field', ['coalesce', ['get', 'name:hi'], ['get', 'name']]);""")
    time.sleep(1)
    wait_for(lambda: browser.execute_script("return window.openmapsMap.loaded()"), 30)
    time.sleep(1)
    vector, raster, w, h = browser.execute_async_script(LABEL_CROPS, point)
    unshaped, _ = text_overlap(vector, raster, w, h)
    shot(browser, "app-vector-hindi-unshaped")
    check(ink > 50 and shaped >= 0.8,
          "'%s' on the vector map matches the PNG map's label by pixels (%.2f of %d text pixels)" % (name, shaped, ink))
    check(shaped - unshaped >= 0.25,
          "MapLibre's own text of '%s' would not (%.2f against %.2f)" % (name, unshaped, shaped))



def floor_picker(browser, base):
    """Indoor maps on the vector map: the floor picker lists the floors in view (Fontvieille's
    shops are on 0, a terrace on 3), shows the ground floor first, and switching floors hides
    the other floor's shops."""
    link = urllib.parse.quote("comgooglemaps://?center=43.7305,7.4170&zoom=18", safe="")
    browser.get(base + "/open?url=" + link)
    wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)
    floors = wait_for(lambda: browser.execute_script(
        "return [...document.querySelectorAll('#floors button')].map((b) => b.dataset.floor)"), 30)
    check(floors == ["3", "0"] and browser.execute_script("return document.body.dataset.floor") == "0",
          "the floor picker lists the floors in view, top first, the ground floor shown (%s)" % floors)
    ground = "return window.openmapsMap.queryRenderedFeatures({layers: ['poi']}).filter((f) => f.properties.level === 0).length"
    before = wait_for(lambda: browser.execute_script("return window.openmapsMap.loaded()") and browser.execute_script(ground), 60)
    shot(browser, "app-vector-floor-0")
    browser.find_element(By.CSS_SELECTOR, "#floors button[data-floor='3']").click()
    # The filter applies on the next frames, later on a busy machine than a fixed pause allows.
    wait_for(lambda: browser.execute_script("return window.openmapsMap.loaded()")
             and browser.execute_script(ground) == 0, 30)
    after = browser.execute_script(ground)
    pressed = browser.execute_script(
        "return document.querySelector('#floors button[aria-pressed=true]').dataset.floor")
    check(bool(before) and after == 0 and pressed == "3",
          "floor 3 picked, the ground floor's shops leave the map (%s, then %s)" % (before, after))
    shot(browser, "app-vector-floor-3")


def isochrones(browser, base):
    """What is reachable from the map's centre: the maps app's isochrones drawn on the map."""
    link = urllib.parse.quote("comgooglemaps://?center=43.7347,7.4206&zoom=15", safe="")
    browser.get(base + "/open?hl=it&url=" + link)
    wait_for(lambda: browser.execute_script("return document.body.dataset.ready") == "true", 60)
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=walking]").click()
    button = browser.find_element(By.ID, "reach")
    check(button.text.startswith("Raggiungibile"), "the reach button speaks Italian: %r" % button.text)
    button.click()
    wait_for(lambda: browser.execute_script("return document.body.dataset.reach"), 30)
    areas = wait_for(lambda: browser.execute_script(
        "return window.openmapsMap.querySourceFeatures('drawn-areas').length"), 30)
    check(bool(areas) and areas >= 3, "the isochrones of 5, 10 and 15 minutes are drawn (%s areas)" % areas)
    shot(browser, "app-vector-isochrones")

def run(browser, base):
    # A display link: the camera where the link puts it.
    check(open_page(browser, base + "/maps/@43.7384,7.4246,16z"), "a display link opens the page")
    lat, lng = center(browser)
    check(abs(lat - 43.7384) < 1e-3 and abs(lng - 7.4246) < 1e-3, "the map is centred on the link's point (%f,%f)" % (lat, lng))
    check(browser.execute_script("return document.body.dataset.zoom") == "16", "at the link's zoom")
    check(wait_for(lambda: tiles_loaded(browser), 60), "our tiles load into the map")
    check(browser.execute_script("return document.body.dataset.engine") == "leaflet",
          "without WebGL the page falls back on Leaflet and the PNG tiles")
    shot(browser, "display")

    # A search link: the results listed, numbered pins on the map.
    link = base + "/maps/search/?api=1&query=" + urllib.parse.quote("Musée Océanographique")
    check(open_page(browser, link), "a search link opens the page")
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#results li")]
    # The page speaks English, so names come in English where the data has them (name:en).
    check(any("Oceanographic Museum" in n for n in names), "the place is among the results: %s" % names[:3])
    check(len(browser.find_elements(By.CSS_SELECTOR, ".pin-glyph")) >= 1, "numbered pins are on the map")
    check("Results" in text(browser, "#status"), "the live region says the results: %r" % text(browser, "#status"))
    shot(browser, "search")

    # A directions link, in Italian: the route drawn, its steps in Italian.
    directions = "comgooglemaps://?saddr=Place+du+Casino&daddr=Port+Hercule&directionsmode=walking"
    check(open_page(browser, base + "/open?hl=it&url=" + urllib.parse.quote(directions, safe="")),
          "a directions link opens the page")
    steps = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#steps li")]
    check(len(steps) >= 3, "its steps are listed (%d)" % len(steps))
    check(steps and steps[0].startswith("Dirigiti"), "in Italian: %r" % (steps[0] if steps else None))
    check(steps and "Sei arrivato" in steps[-1], "ending on the arrival: %r" % (steps[-1] if steps else None))
    check(len(browser.find_elements(By.CSS_SELECTOR, ".leaflet-overlay-pane path")) >= 1, "the route is drawn")
    check(text(browser, "#route-summary") != "", "the route is summed up: %r" % text(browser, "#route-summary"))
    check(browser.find_element(By.ID, "to").get_attribute("value") == "Port Hercule", "the destination is filled in")
    check(browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=walking]").is_selected(), "walking is chosen")
    shot(browser, "directions-it")

    # An x-callback link: the back button with the validated URL, never followed by itself.
    callback = "comgooglemaps-x-callback://?q=Casino&x-success=sourceapp://?resume=true&x-source=SourceApp"
    page = base + "/open?url=" + urllib.parse.quote(callback, safe="")
    check(open_page(browser, page), "an x-callback link opens the page")
    back = browser.find_element(By.ID, "back-link")
    check(back.is_displayed() and back.text == "Back to SourceApp", "the back button is offered: %r" % back.text)
    check(back.get_attribute("href") == "sourceapp://?resume=true", "it opens the link's x-success: %r" % back.get_attribute("href"))
    time.sleep(1)
    check(browser.current_url == page, "nothing was followed without a click")
    shot(browser, "x-callback")

    # A hostile x-success is not offered.
    hostile = "comgooglemaps-x-callback://?q=Casino&x-success=javascript:alert(1)&x-source=Evil"
    open_page(browser, base + "/open?url=" + urllib.parse.quote(hostile, safe=""))
    check(not browser.find_element(By.ID, "back-link").is_displayed(), "a javascript: x-success gets no button")

    # Search as you type, and a keyboard walk from the top of the page.
    open_page(browser, base + "/maps/@43.7384,7.4246,15z")
    box = browser.find_element(By.ID, "search")
    box.send_keys("Palais Prin")
    found = wait_for(lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#results li")], 20)
    check(found and "Palais Princier" in found[0], "results come as the words are typed: %s" % (found or [])[:2])
    browser.find_element(By.CSS_SELECTOR, "#results li button").send_keys(Keys.ENTER)
    lat, lng = center(browser) if wait_for(lambda: browser.execute_script("return document.body.dataset.zoom") >= "16", 10) else (0, 0)
    check(abs(lat - 43.7314) < 0.002 and abs(lng - 7.4201) < 0.002, "Enter on a result shows it (%f,%f)" % (lat, lng))
    # A result with opening hours says whether it is open and until when.
    open_page(browser, base + "/maps/@43.7384,7.4246,15z")
    box = browser.find_element(By.ID, "search")
    box.send_keys("Musée Océanographique")
    hours = wait_for(lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#results li .hours")], 20)
    check(hours and (hours[0].startswith("Open") or hours[0].startswith("Closed")),
          "a result says whether it is open: %s" % (hours or [])[:1])
    shot(browser, "opening-hours")
    # Typing and pressing Enter search alike: far from Monaco, a shop or a palace there is not
    # offered, and the note names it and how far it is.
    open_page(browser, base + "/maps/@60.1699,24.9384,15z")
    box = browser.find_element(By.ID, "search")
    box.send_keys("Palais Prin")
    typed = wait_for(lambda: "Palais Princier" in browser.find_element(By.ID, "status").text and browser.find_element(By.ID, "status").text, 20)
    check(typed and not browser.find_elements(By.CSS_SELECTOR, "#results li"),
          "typed far from it, nothing nearby is offered and the note names the nearest: %s" % typed)
    box.send_keys("cier", Keys.ENTER)
    entered = wait_for(lambda: any("Palais Princier" in n.text for n in browser.find_elements(By.CSS_SELECTOR, "#notes li")) or
                       "Palais Princier" in browser.find_element(By.ID, "status").text, 20)
    check(entered, "pressed Enter, the same answer: no place nearby, the nearest named")
    open_page(browser, base + "/maps/@43.7384,7.4246,15z")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    first = browser.switch_to.active_element
    check(first.get_attribute("class") == "skip", "the first Tab stop is the skip link")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('input:not([type=radio]):not([type=checkbox]), button')]"
        ".filter(e => !e.closest('[hidden]')).every(e => e.labels && e.labels.length || e.getAttribute('aria-label') || e.textContent.trim())")
    check(labels, "every field and button has a name a screen reader reads")

    # Map type, scheme and share.
    browser.find_element(By.CSS_SELECTOR, "input[name=maptype][value=satellite]").click()
    check(wait_for(lambda: "/tiles/satellite/" in browser.find_element(By.CSS_SELECTOR, ".leaflet-tile").get_attribute("src"), 10),
          "the map type switch asks for satellite tiles")
    browser.find_element(By.CSS_SELECTOR, "input[name=maptype][value=normal]").click()
    browser.find_element(By.CSS_SELECTOR, "input[name=scheme][value=dark]").click()
    check(wait_for(lambda: "scheme=dark" in browser.find_element(By.CSS_SELECTOR, ".leaflet-tile").get_attribute("src"), 10),
          "the dark scheme asks for dark tiles")
    browser.find_element(By.ID, "layer-bicycling").click()
    check(wait_for(lambda: "layers=bicycling" in browser.find_element(By.CSS_SELECTOR, ".leaflet-tile").get_attribute("src"), 10),
          "the bicycling switch asks for the bicycling layer's tiles")
    shot(browser, "dark")
    browser.find_element(By.ID, "share").click()
    links = wait_for(lambda: [e.get_attribute("value") for e in browser.find_elements(By.CSS_SELECTOR, "#share-links input")], 10) or []
    forms = {link.split(":")[0] for link in links}
    check({"comgooglemaps", "https", "geo", "comgooglemapsurl"} <= forms and len(links) == 6, "share gives six forms: %s" % links)
    check(any(link.startswith("https://maps.apple.com/") for link in links), "including Apple Maps")
    shot(browser, "share")

    # My Location from the browser, then directions from it (a blank start).
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
    browser.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 43.7395, "longitude": 7.4270, "accuracy": 20})
    open_page(browser, base + "/maps/@43.7384,7.4246,15z")
    browser.find_element(By.ID, "my-location").click()
    check(wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".me"), 10), "My Location is shown where the browser says")
    lat, lng = center(browser) if wait_for(lambda: browser.execute_script("return document.body.dataset.zoom") == "16", 10) else (0, 0)
    check(abs(lat - 43.7395) < 1e-3 and abs(lng - 7.4270) < 1e-3, "and the map goes there (%f,%f)" % (lat, lng))
    browser.find_element(By.ID, "to").send_keys("Port Hercule")
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=bicycling]").click()
    browser.find_element(By.CSS_SELECTOR, "#directions-form button[type=submit]").click()
    steps = wait_for(lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#steps li")], 20) or []
    check(len(steps) >= 2 and "destination" in steps[-1], "directions from My Location by bicycle: %d steps" % len(steps))
    shot(browser, "my-location-directions")

    # A transit link: the journey on the imported timetable, its itinerary listed.
    transit = "comgooglemaps://?saddr=43.7393,7.4276&daddr=43.7289,7.4161&directionsmode=transit"
    check(open_page(browser, base + "/open?url=" + urllib.parse.quote(transit, safe="")), "a transit link opens the page")
    steps = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#steps li")]
    check(any("take the bus 1 towards Fontvieille at Casino" in s for s in steps), "its itinerary rides the bus: %s" % steps[:3])
    check(text(browser, "#route-summary").startswith("Leave at"), "and is summed up: %r" % text(browser, "#route-summary"))
    check(browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=transit]").is_selected(), "transit is chosen")
    shot(browser, "transit")

    # The interface in Hindi.
    open_page(browser, base + "/maps/@43.7384,7.4246,16z?hl=hi")
    check(text(browser, "#directions-heading") == "रास्ता", "the page speaks Hindi with hl=hi")
    shot(browser, "hindi")


if __name__ == "__main__":
    main()
