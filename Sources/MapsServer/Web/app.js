// OpenMaps web app. Every question goes to the server, which asks the maps app: what a link
// means (/api/answer), what a typed text finds (/search), the links that share a view
// (/api/share). This script only shows the answers. No inline code: the page's
// Content-Security-Policy allows scripts from this server only.
'use strict';

(function () {
  const words = JSON.parse(document.getElementById('openmaps-words').textContent);
  const language = document.querySelector('meta[name="openmaps-language"]').content;
  const link = document.querySelector('meta[name="openmaps-link"]').content;
  const $ = (id) => document.getElementById(id);

  /** The app's text `key` with its `{placeholders}` filled. */
  function say(key, values) {
    let text = words[key] || key;
    for (const [name, value] of Object.entries(values || {})) text = text.split('{' + name + '}').join(value);
    return text;
  }

  function status(text) { $('status').textContent = text; }

  const state = {
    mapType: 'normal', scheme: 'light', traffic: false, transit: false, bicycling: false, query: null, directions: null,
  };

  // MARK: the map

  // MapLibre on the vector tiles where WebGL is drawn, Leaflet on the PNG tiles elsewhere.
  const map = window.OpenMapsSurface.create('map', { zoomIn: say('zoom in'), zoomOut: say('zoom out') });
  document.body.dataset.engine = map.kind;
  // For scripts and tests that look at the vector map itself.
  if (map.map) window.openmapsMap = map.map;

  // The view as the page's data attributes, for scripts and tests that drive the page.
  function publishView() {
    const c = map.center();
    document.body.dataset.center = c.lat.toFixed(5) + ',' + c.lng.toFixed(5);
    document.body.dataset.zoom = String(map.zoom());
    document.body.dataset.bearing = String(Math.round(map.bearing()));
    document.body.dataset.tilt = String(Math.round(map.tilt()));
    document.body.dataset.mapType = state.mapType;
    document.body.dataset.scheme = state.scheme;
  }
  map.onMoveEnd(publishView);

  function refreshTiles() {
    map.setLook({
      mapType: state.mapType, scheme: state.scheme, traffic: state.traffic, transit: state.transit,
      bicycling: state.bicycling, language: language,
    });
    document.body.classList.toggle('dark', state.scheme === 'dark');
    for (const input of document.querySelectorAll('input[name=maptype]')) input.checked = input.value === state.mapType;
    for (const input of document.querySelectorAll('input[name=scheme]')) input.checked = input.value === state.scheme;
    $('layer-traffic').checked = state.traffic;
    $('layer-transit').checked = state.transit;
    $('layer-bicycling').checked = state.bicycling;
    publishView();
  }

  /** Google's encoded polyline at `precision` decimals, as [lat, lng] pairs. */
  function decodePolyline(text, precision) {
    const factor = Math.pow(10, precision);
    const points = [];
    let index = 0, lat = 0, lng = 0;
    while (index < text.length) {
      for (const which of [0, 1]) {
        let shift = 0, result = 0, byte;
        do {
          byte = text.charCodeAt(index++) - 63;
          result |= (byte & 0x1f) << shift;
          shift += 5;
        } while (byte >= 0x20 && index < text.length);
        const delta = result & 1 ? ~(result >> 1) : result >> 1;
        if (which === 0) lat += delta; else lng += delta;
      }
      points.push([lat / factor, lng / factor]);
    }
    return points;
  }

  function cssColor(color) {
    const c = (v) => Math.round(v * 255);
    return 'rgba(' + c(color.red) + ',' + c(color.green) + ',' + c(color.blue) + ',' + color.alpha + ')';
  }

  // MARK: answers

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  /** A URL the back button may open: the server validated it; a script or data URL never. */
  function safeCallback(url) {
    try {
      const scheme = new URL(url).protocol.toLowerCase();
      return !['javascript:', 'data:', 'vbscript:', 'file:', 'blob:'].includes(scheme);
    } catch (e) { return false; }
  }

  /** Shows an answer document: the map view it opens, places, route, steps, notes, callback. */
  function show(answer) {
    const view = answer.view;
    map.clear();
    state.mapType = view.mapType === 'none' ? 'normal' : view.mapType;
    state.traffic = !!view.content.traffic;
    state.transit = !!view.content.transit;
    state.bicycling = !!view.content.bicycling;
    if (view.content.colorScheme === 'dark') state.scheme = 'dark';
    refreshTiles();
    refreshVehicles();
    // Areas (isochrones), the largest first, under the lines.
    for (const area of view.areas || []) {
      map.area(area.rings.map((ring) => decodePolyline(ring, 6)), {
        fill: area.fill ? cssColor({ red: area.fill.red, green: area.fill.green, blue: area.fill.blue, alpha: 1 }) : null,
        opacity: area.fill ? area.fill.alpha : 0, stroke: area.stroke ? cssColor(area.stroke) : null,
      });
    }
    for (const line of view.lines) {
      map.line(decodePolyline(line.polyline6, 6), {
        color: cssColor(line.color), weight: line.width, opacity: line.color.alpha, dash: line.pattern,
      });
    }
    view.markers.forEach((marker, index) => {
      // Flat markers are the realtime vehicles, drawn (and kept current) from /api/vehicles.
      if (marker.isFlat) return;
      const title = [marker.title, marker.snippet].filter(Boolean).join(' · ');
      map.pin(marker.position.latitude, marker.position.longitude, marker.glyph, title, index === view.selectedMarker,
        title ? () => popup(marker) : null);
    });
    // The link's camera exactly: its centre, zoom, bearing and tilt.
    map.setView(view.camera.target.latitude, view.camera.target.longitude, view.camera.zoom, view.camera.bearing,
      view.camera.viewingAngle);

    showFloors(view.floors, view.floor);
    $('asks').hidden = !answer.asks;
    $('asks').textContent = answer.asks ? say('asks') + ': ' + answer.asks : '';
    showPlaces(answer.places);
    showRoute(answer);
    const notes = $('notes');
    notes.replaceChildren(...answer.notes.map((note) => element('li', note.message)));
    $('notes-section').hidden = answer.notes.length === 0;
    const back = answer.callback;
    $('back').hidden = !(back && safeCallback(back.success));
    if (back && safeCallback(back.success)) {
      $('back-link').textContent = say('back', { app: back.source });
      $('back-link').href = back.success;
    }
    if (answer.request && answer.request.query) $('search').value = answer.request.query;
  }

  function popup(marker) {
    const box = element('div');
    box.appendChild(element('strong', marker.title || ''));
    if (marker.snippet) box.appendChild(element('div', marker.snippet));
    return box;
  }

  function showPlaces(places) {
    const list = $('results');
    list.replaceChildren();
    places.forEach((place, index) => {
      const item = element('li');
      const button = element('button');
      button.type = 'button';
      button.appendChild(element('span', place.name));
      if (place.address) button.appendChild(element('span', place.address, 'address'));
      // Open or closed and until when, in the page's language; the plus code of its pin.
      if (place.hours) button.appendChild(element('span', place.hours, 'hours'));
      button.addEventListener('click', () => focusPlace(place, index));
      item.appendChild(button);
      list.appendChild(item);
    });
    $('results-section').hidden = places.length === 0;
    if (places.length) status(say('results count', { count: String(places.length) }));
  }

  function focusPlace(place, index) {
    map.setView(place.position.latitude, place.position.longitude, Math.max(map.zoom(), 16), map.bearing(), map.tilt());
    for (const [at, item] of [...$('results').children].entries()) item.classList.toggle('selected', at === index);
    map.clear();
    map.pin(place.position.latitude, place.position.longitude, String(index + 1), place.name, true,
      () => popup({ title: place.name, snippet: [place.address, place.hours, place.plusCode].filter(Boolean).join(' · ') }))
      .openPopup();
    $('to').value = place.name;
  }

  function showRoute(answer) {
    const steps = $('steps');
    steps.replaceChildren(...answer.steps.map((step) => {
      const item = element('li', step.instruction);
      if (step.distance > 0) item.appendChild(element('span', step.distanceText, 'step-distance'));
      return item;
    }));
    const route = answer.route;
    $('route-summary').hidden = !route;
    $('route-summary').textContent = route
      ? say('route summary', { distance: route.distanceText, duration: route.durationText }) : '';
    // A transit journey: its summary and what to do, walk by walk and ride by ride.
    if (answer.transit) {
      steps.replaceChildren(...answer.transit.itinerary.map((line) => element('li', line)),
        ...(answer.transit.live || []).map((line) => element('li', line, 'live')));
      $('route-summary').hidden = false;
      $('route-summary').textContent = answer.transit.summary;
    }
    $('steps-heading').hidden = steps.children.length === 0;
    const ends = answer.routeEnds || [];
    if (ends.length >= 2) {
      // A blank start is the user's location; else the text, name or point the link gives.
      const text = (end) => {
        const waypoint = end.waypoint;
        if (waypoint.kind === 'currentLocation') return '';
        if (waypoint.query || waypoint.name) return waypoint.query || waypoint.name;
        if (end.place) return end.place.name;
        const point = waypoint.coordinate;
        return point ? point.latitude + ',' + point.longitude : '';
      };
      $('from').value = text(ends[0]);
      $('to').value = text(ends[ends.length - 1]);
      const mode = answer.request.directions && answer.request.directions.travelMode;
      for (const input of document.querySelectorAll('input[name=mode]')) input.checked = input.value === (mode || 'driving');
    }
  }

  // MARK: floors

  // The floor picker: the floors of what is in view, from the maps app (the view's `floors`
  // and `floor`), asked again when the map stops moving at indoor zooms.
  const indoorZoom = 17;
  let floorShown = null;
  const picker = element('div', undefined, 'floors');
  picker.id = 'floors';
  picker.setAttribute('role', 'group');
  picker.setAttribute('aria-label', say('floors'));
  picker.hidden = true;
  $('map').appendChild(picker);

  function showFloors(floors, floor) {
    const names = map.floors && floors ? floors.map((level) => level.name) : [];
    picker.hidden = names.length === 0;
    if (!names.length) return;
    const chosen = names.includes(floorShown) ? floorShown : floor ? floor.name : names[names.length - 1];
    picker.replaceChildren(...floors.map((level) => {
      const button = element('button', level.shortName || level.name);
      button.type = 'button';
      button.dataset.floor = level.name;
      button.setAttribute('aria-label', say('floor', { name: level.name }));
      button.addEventListener('click', () => pickFloor(level.name));
      return button;
    }));
    pickFloor(chosen);
  }

  function pickFloor(name) {
    floorShown = name;
    map.setFloor(name);
    for (const button of picker.children) button.setAttribute('aria-pressed', String(button.dataset.floor === name));
    document.body.dataset.floor = name;
  }

  let floorsAsked = 0;
  map.onMoveEnd(() => {
    if (!map.floors) return;
    if (map.zoom() < indoorZoom) { picker.hidden = true; return; }
    const number = ++floorsAsked;
    const link = 'comgooglemaps://?' + new URLSearchParams({ center: center(), zoom: String(Math.floor(map.zoom())) });
    fetch('/api/answer?' + answerQuery(link).toString()).then((r) => r.json()).then((json) => {
      if (number === floorsAsked && json.view) showFloors(json.view.floors, json.view.floor);
    }).catch(() => {});
  });

  let myLocation = null;

  /** The question of what `url` means, for this map: its size, the padding its controls
   * take (the camera fits the answer in the part they leave), the page's language and the
   * user's location. */
  function answerQuery(url) {
    const size = map.size();
    const padding = map.controlPadding();
    map.setPadding(padding);
    const query = new URLSearchParams({
      url: url, hl: language, size: size.x + 'x' + size.y,
      padding: [padding.top, padding.left, padding.bottom, padding.right].join(','),
    });
    if (myLocation) query.set('mylocation', myLocation.lat + ',' + myLocation.lng);
    return query;
  }

  /** Asks the server what `url` means and shows it; `extra` adds options (isochrones). */
  function open(url, extra) {
    status(say('loading'));
    const query = answerQuery(url);
    for (const [name, value] of Object.entries(extra || {})) query.set(name, value);
    // The camera's turn and tilt, when the page's address asks for them (/open?url=…&bearing=30&tilt=60).
    const page = new URLSearchParams(window.location.search);
    for (const name of ['bearing', 'tilt']) if (page.get(name)) query.set(name, page.get(name));
    return fetch('/api/answer?' + query.toString())
      .then((response) => response.json().then((json) => ({ ok: response.ok, json: json })))
      .then(({ ok, json }) => {
        if (!ok) throw new Error(json.error + (json.details ? ': ' + json.details.join('; ') : ''));
        status('');
        show(json);
        return json;
      })
      .catch((error) => status(say('error', { message: error.message })));
  }

  function center() {
    const c = map.center();
    return c.lat.toFixed(6) + ',' + c.lng.toFixed(6);
  }

  // MARK: search as you type

  let typing = null;
  let asked = 0;
  $('search').addEventListener('input', () => {
    clearTimeout(typing);
    const text = $('search').value.trim();
    if (text.length < 2) return;
    typing = setTimeout(() => suggest(text), 250);
  });

  // The same search as pressing Enter (the link's q), read while typing: /api/search.
  function suggest(text) {
    const number = ++asked;
    const c = map.center();
    const query = new URLSearchParams({
      q: text, near: c.lat.toFixed(6) + ',' + c.lng.toFixed(6), limit: '8', hl: language, typing: '1',
    });
    status(say('searching'));
    fetch('/api/search?' + query.toString()).then((r) => r.json()).then((found) => {
      if (number !== asked) return;  // a later keystroke asked again
      const places = Array.isArray(found.places) ? found.places : [];
      if (places.length === 0) {
        showPlaces([]);
        status(found.notes && found.notes.length ? found.notes[0].message : say('no results', { text: text }));
        return;
      }
      showPlaces(places.map((p) => ({
        name: p.name, address: p.address || '', hours: p.hours || '', plusCode: p.plusCode || '', position: p.position,
      })));
    }).catch((error) => status(say('error', { message: error.message })));
    return c;
  }

  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('search').value.trim();
    if (!text) return;
    clearTimeout(typing);
    state.query = text;
    state.directions = null;
    open('comgooglemaps://?' + new URLSearchParams({ q: text, center: center(), zoom: String(Math.round(map.zoom())) }));
  });

  // MARK: directions

  $('directions-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = document.querySelector('input[name=mode]:checked').value;
    const from = $('from').value.trim();
    const to = $('to').value.trim();
    if (!to) { $('to').focus(); return; }
    state.directions = { saddr: from, daddr: to, directionsmode: mode };
    state.query = null;
    open('comgooglemaps://?' + new URLSearchParams(state.directions));
  });

  // What is reachable from the map's centre in 5, 10 and 15 minutes, by the travel mode
  // chosen (on foot for transit): the maps app draws the isochrones into its answer.
  $('reach').addEventListener('click', () => {
    const mode = document.querySelector('input[name=mode]:checked').value;
    const link = 'comgooglemaps://?' + new URLSearchParams({ center: center(), zoom: String(Math.round(map.zoom())) });
    state.directions = null;
    state.query = null;
    open(link, { isochrone: '5,10,15', isochronemode: mode === 'transit' ? 'walking' : mode })
      .then(() => { document.body.dataset.reach = String(document.body.dataset.reach ? +document.body.dataset.reach + 1 : 1); });
  });

  $('swap').addEventListener('click', () => {
    const from = $('from').value;
    $('from').value = $('to').value;
    $('to').value = from;
  });

  // MARK: map settings

  for (const input of document.querySelectorAll('input[name=maptype]')) {
    input.addEventListener('change', () => { state.mapType = input.value; refreshTiles(); });
  }
  for (const input of document.querySelectorAll('input[name=scheme]')) {
    input.addEventListener('change', () => { state.scheme = input.value; refreshTiles(); });
  }
  $('layer-traffic').addEventListener('change', () => { state.traffic = $('layer-traffic').checked; refreshTiles(); });
  $('layer-transit').addEventListener('change', () => {
    state.transit = $('layer-transit').checked;
    refreshTiles();
    refreshVehicles();
  });
  // With the transit layer on, the realtime feeds' vehicles in view, every 30 seconds.
  function refreshVehicles() {
    if (!state.transit || !map.box) {
      if (map.vehicles) { map.vehicles([]); map.stopAlerts([]); }
      return;
    }
    const [west, south, east, north] = map.box();
    const box = [Math.max(west, -180), Math.max(south, -90), Math.min(east, 180), Math.min(north, 90)];
    fetch('/api/vehicles?bbox=' + box.map((v) => v.toFixed(5)).join(','))
      .then((r) => r.json()).then((json) => map.vehicles(json.features || [])).catch(() => {});
    fetch('/api/alerts?hl=' + language + '&bbox=' + box.map((v) => v.toFixed(5)).join(','))
      .then((r) => r.json()).then((json) => map.stopAlerts(json.features || [])).catch(() => {});
  }
  setInterval(refreshVehicles, 30000);
  map.onMoveEnd(refreshVehicles);
  $('layer-bicycling').addEventListener('change', () => {
    state.bicycling = $('layer-bicycling').checked;
    refreshTiles();
  });

  $('my-location').addEventListener('click', () => {
    if (!navigator.geolocation) { status(say('location unavailable')); return; }
    navigator.geolocation.getCurrentPosition((position) => {
      myLocation = { lat: position.coords.latitude, lng: position.coords.longitude };
      map.me(myLocation.lat, myLocation.lng, position.coords.accuracy, say('you are here'));
      map.setView(myLocation.lat, myLocation.lng, Math.max(map.zoom(), 16), map.bearing(), map.tilt());
      status(say('you are here'));
    }, () => status(say('location unavailable')), { timeout: 10000 });
  });

  // MARK: share

  function shareQuery() {
    const views = [];
    if (state.mapType === 'satellite' || state.mapType === 'hybrid') views.push('satellite');
    if (state.mapType === 'terrain') views.push('terrain');
    if (state.traffic) views.push('traffic');
    if (state.transit) views.push('transit');
    if (state.bicycling) views.push('bicycling');
    const query = new URLSearchParams({ center: center(), zoom: String(Math.round(map.zoom())) });
    if (views.length) query.set('views', views.join(','));
    if (state.query) query.set('q', state.query);
    if (state.directions) {
      if (state.directions.saddr) query.set('saddr', state.directions.saddr);
      query.set('daddr', state.directions.daddr);
      query.set('directionsmode', state.directions.directionsmode);
    }
    return query;
  }

  $('share').addEventListener('click', () => {
    fetch('/api/share?' + shareQuery().toString()).then((r) => r.json()).then((json) => {
      if (!json.links) throw new Error(json.error || 'share');
      const list = $('share-links');
      list.replaceChildren();
      for (const entry of json.links) {
        list.appendChild(element('dt', entry.name));
        const row = element('dd');
        const field = element('input');
        field.readOnly = true;
        field.value = entry.url;
        field.setAttribute('aria-label', entry.name);
        const copy = element('button', say('copy'));
        copy.type = 'button';
        copy.addEventListener('click', () => {
          field.select();
          const done = () => { copy.textContent = say('copied'); status(say('copied')); };
          if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(entry.url).then(done, done);
          else { document.execCommand('copy'); done(); }
        });
        row.append(field, copy);
        list.appendChild(row);
      }
      $('share-panel').hidden = false;
      $('share').setAttribute('aria-expanded', 'true');
      list.querySelector('input').focus();
    }).catch((error) => status(say('error', { message: error.message })));
  });

  function closeShare() {
    $('share-panel').hidden = true;
    $('share').setAttribute('aria-expanded', 'false');
    $('share').focus();
  }
  $('share-close').addEventListener('click', closeShare);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !$('share-panel').hidden) closeShare();
  });

  // MARK: the link this page was opened with

  if (link) open(link).then(() => { document.body.dataset.ready = 'true'; });
  else document.body.dataset.ready = 'true';
})();
