// The web app's map, behind one small interface, on either engine: MapLibre GL JS drawing
// OpenMaps' vector tiles in the style the page asks for (turned, tilted, 3D buildings), or
// Leaflet drawing the PNG tiles where WebGL is missing. Zooms here are the links' (256-point
// tiles); MapLibre's are one less. No inline code: the page's policy allows scripts from this
// server only.
'use strict';

window.OpenMapsSurface = (function () {
  /** True when this browser draws WebGL and MapLibre GL JS was served. */
  function vectorAvailable() {
    if (!window.maplibregl) return false;
    try {
      const canvas = document.createElement('canvas');
      return !!(canvas.getContext('webgl2') || canvas.getContext('webgl'));
    } catch (e) { return false; }
  }

  /** The layers query of a look: traffic, transit, bicycling. */
  function layers(look) {
    return [look.traffic && 'traffic', look.transit && 'transit', look.bicycling && 'bicycling'].filter(Boolean).join(',');
  }

  function leaflet(element, labels) {
    const map = L.map(element, { zoomControl: false, minZoom: 2, maxZoom: 21, worldCopyJump: true }).setView([20, 0], 2);
    L.control.zoom({ zoomInTitle: labels.zoomIn, zoomOutTitle: labels.zoomOut }).addTo(map);
    map.attributionControl.setPrefix(false);
    const tiles = L.tileLayer('/tiles/normal/{z}/{x}/{y}{r}.png', { minZoom: 2, maxZoom: 21, tileSize: 256 }).addTo(map);
    fetch('/tiles/normal.json').then((r) => r.json()).then((json) => {
      if (json.attribution) map.attributionControl.addAttribution(json.attribution);
    }).catch(() => {});
    const drawn = L.layerGroup().addTo(map);
    const vehicleLayer = L.layerGroup().addTo(map);
    const alertLayer = L.layerGroup().addTo(map);
    let me = null;
    let padding = { top: 0, left: 0, bottom: 0, right: 0 };
    return {
      kind: 'leaflet',
      // The PNG tiles draw the default floor only: no floor picker here.
      floors: false,
      setFloor() {},
      // The link's camera target is the centre of the part the padding leaves: the whole
      // map's centre lies half the padding's difference away.
      setView(lat, lng, zoom) {
        map.setView([lat, lng], Math.round(zoom), { animate: false });
        map.panBy([(padding.right - padding.left) / 2, (padding.bottom - padding.top) / 2], { animate: false });
      },
      setPadding(edges) { padding = edges; },
      controlPadding() {
        return controlPadding(map.getContainer(), '.leaflet-top.leaflet-left', '.leaflet-bottom.leaflet-right');
      },
      zoom() { return map.getZoom(); },
      bearing() { return 0; },
      tilt() { return 0; },
      // The centre of the part the padding leaves, as the camera's target is.
      center() {
        const size = map.getSize();
        const c = map.containerPointToLatLng([
          padding.left + (size.x - padding.left - padding.right) / 2, padding.top + (size.y - padding.top - padding.bottom) / 2,
        ]).wrap();
        return { lat: c.lat, lng: c.lng };
      },
      size() { const s = map.getSize(); return { x: s.x, y: s.y }; },
      onMoveEnd(handler) { map.on('moveend', handler); },
      setLook(look) {
        const query = new URLSearchParams({ scheme: look.scheme, hl: look.language });
        if (layers(look)) query.set('layers', layers(look));
        tiles.setUrl('/tiles/' + look.mapType + '/{z}/{x}/{y}{r}.png?' + query.toString());
      },
      clear() { drawn.clearLayers(); },
      // The view's box, [west, south, east, north] in degrees.
      box() { const b = map.getBounds(); return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]; },
      // The realtime feeds' vehicles (GeoJSON points): a dot in its route's colour each.
      vehicles(list) {
        vehicleLayer.clearLayers();
        for (const vehicle of list) {
          const [lng, lat] = vehicle.geometry.coordinates;
          const p = vehicle.properties;
          L.circleMarker([lat, lng], { radius: 6, color: '#ffffff', weight: 2, fillColor: p.color, fillOpacity: 1 })
            .bindTooltip([p.route, p.label].filter(Boolean).join(' · ')).addTo(vehicleLayer);
        }
      },
      // The realtime feeds' alerts about stops (GeoJSON points): an amber mark at the stop, the
      // alert's header and description in its popup.
      stopAlerts(list) {
        alertLayer.clearLayers();
        for (const entry of list) {
          const [lng, lat] = entry.geometry.coordinates;
          const p = entry.properties;
          L.circleMarker([lat, lng], { radius: 8, color: '#ffffff', weight: 2, fillColor: '#e37400', fillOpacity: 1 })
            .bindPopup(alertBox(p)).bindTooltip(p.stop + ': ' + (p.header || '')).addTo(alertLayer);
        }
      },
      area(rings, options) {
        L.polygon(rings, { color: options.stroke || '#1a73e8', weight: 1, fillColor: options.fill,
          fillOpacity: options.opacity }).addTo(drawn);
      },
      line(points, options) {
        const style = { color: options.color, weight: options.weight, opacity: options.opacity };
        if (options.dash && options.dash.length) style.dashArray = options.dash.join(' ');
        L.polyline(points, style).addTo(drawn);
      },
      pin(lat, lng, glyph, title, selected, content) {
        const icon = glyph
          ? L.divIcon({ className: '', html: '', iconSize: [26, 26], iconAnchor: [13, 30], popupAnchor: [0, -28] })
          : new L.Icon.Default();
        const marker = L.marker([lat, lng], { icon: icon, title: title || '', alt: title || '', keyboard: true });
        if (glyph) marker.on('add', () => marker.getElement().replaceChildren(glyphHead(glyph, selected)));
        if (content) marker.bindPopup(content);
        marker.addTo(drawn);
        return { openPopup() { marker.openPopup(); } };
      },
      me(lat, lng, accuracy, title) {
        if (me) me.remove();
        me = L.marker([lat, lng], { icon: L.divIcon({ className: 'me', iconSize: [16, 16] }), title: title, alt: title })
          .addTo(map);
        L.circle([lat, lng], { radius: accuracy, weight: 1 }).addTo(drawn);
      },
    };
  }

  /** The map's edges the controls cover, points: the left as wide as the controls in the top
   * left corner, the bottom as high as the attribution in the bottom right. */
  /** An alert's popup: the stop in bold, the header, the description. */
  function alertBox(properties) {
    const box = document.createElement('div');
    for (const [text, tag] of [[properties.stop, 'strong'], [properties.header, 'div'], [properties.description, 'div']]) {
      if (!text) continue;
      const node = document.createElement(tag);
      node.textContent = text;
      box.appendChild(node);
    }
    return box;
  }

  function controlPadding(container, topLeft, bottomRight) {
    const box = (selector) => {
      const node = container.querySelector(selector);
      return node ? node.getBoundingClientRect() : { width: 0, height: 0 };
    };
    return { top: 0, left: Math.ceil(box(topLeft).width), bottom: Math.ceil(box(bottomRight).height), right: 0 };
  }

  /** A numbered pin's head, the selected one in blue. */
  function glyphHead(glyph, selected) {
    const head = document.createElement('div');
    head.className = 'pin-glyph' + (selected ? ' selected' : '');
    const text = document.createElement('span');
    text.textContent = glyph;
    head.appendChild(text);
    return head;
  }

  /** A circle of `metres` around a point, as a GeoJSON ring of 64 points. */
  function circle(lat, lng, metres) {
    const ring = [];
    for (let i = 0; i <= 64; i++) {
      const angle = (i / 64) * 2 * Math.PI;
      const dLat = (metres / 6378137) * Math.cos(angle);
      const dLng = (metres / (6378137 * Math.cos((lat * Math.PI) / 180))) * Math.sin(angle);
      ring.push([lng + (dLng * 180) / Math.PI, lat + (dLat * 180) / Math.PI]);
    }
    return ring;
  }

  function maplibre(element, labels) {
    const map = new maplibregl.Map({
      container: element, style: '/styles/normal.json', center: [0, 20], zoom: 1, maxPitch: 85,
      canvasContextAttributes: { preserveDrawingBuffer: true }, attributionControl: { compact: false },
    });
    map.addControl(new maplibregl.NavigationControl({ visualizePitch: true }), 'top-left');
    window.OpenMapsLabels.attach(map);
    const lines = [];
    const areas = [];
    const markers = [];
    let vehicleList = [];
    const alertMarkers = [];
    let me = null;
    let styleURL = '';
    function features(list) { return { type: 'FeatureCollection', features: list }; }
    // The drawn lines and areas live in sources of their own, added again to each new style.
    function addDrawn() {
      if (map.getSource('drawn-lines')) return;
      map.addSource('drawn-lines', { type: 'geojson', data: features(lines) });
      map.addSource('drawn-areas', { type: 'geojson', data: features(areas) });
      // The realtime feeds' vehicles: a dot in its route's colour, an arrow for its heading.
      map.addSource('vehicles', { type: 'geojson', data: features(vehicleList) });
      map.addLayer({ id: 'vehicles', type: 'circle', source: 'vehicles',
        paint: { 'circle-radius': 6, 'circle-color': ['get', 'color'], 'circle-stroke-color': '#ffffff',
          'circle-stroke-width': 2 } });
      map.addLayer({ id: 'vehicle-labels', type: 'symbol', source: 'vehicles',
        layout: { 'text-field': ['coalesce', ['get', 'route'], ''], 'text-size': 11, 'text-offset': [0, 1.3],
          'text-font': ['Noto Sans Regular'] },
        paint: { 'text-halo-color': '#ffffff', 'text-halo-width': 1 } });
      map.addLayer({ id: 'drawn-areas', type: 'fill', source: 'drawn-areas',
        paint: { 'fill-color': ['coalesce', ['get', 'fill'], '#3388ff'],
          'fill-opacity': ['coalesce', ['get', 'opacity'], 0.15],
          'fill-outline-color': ['coalesce', ['get', 'stroke'], '#3388ff'] } });
      for (const dashed of [false, true]) {
        const layer = {
          id: dashed ? 'drawn-dashed' : 'drawn-lines', type: 'line', source: 'drawn-lines',
          filter: ['==', ['get', 'dashed'], dashed], layout: { 'line-cap': 'round', 'line-join': 'round' },
          paint: { 'line-color': ['get', 'color'], 'line-width': ['get', 'width'], 'line-opacity': ['get', 'opacity'] },
        };
        if (dashed) layer.paint['line-dasharray'] = [0.5, 1.5];
        map.addLayer(layer);
      }
    }
    function refresh() {
      if (!map.getSource('drawn-lines')) return;
      map.getSource('drawn-lines').setData(features(lines));
      map.getSource('drawn-areas').setData(features(areas));
    }
    // The floor shown: the style's layers that show one floor carry their filter for any floor
    // in their metadata, the floor's name to fill in.
    let floor = null;
    function onFloor(template, name) {
      if (typeof template === 'string') return template.split('{floor}').join(name);
      if (Array.isArray(template)) return template.map((part) => onFloor(part, name));
      return template;
    }
    function showFloor() {
      if (floor === null || !map.getStyle()) return;
      for (const layer of map.getStyle().layers) {
        const template = layer.metadata && layer.metadata['openmaps:floor-filter'];
        if (template) map.setFilter(layer.id, onFloor(template, floor));
      }
    }
    map.on('style.load', () => { addDrawn(); showFloor(); });
    return {
      kind: 'maplibre',
      map: map,
      floors: true,
      /** Shows the indoor maps' floor `name` (its OSM level, `0`, `-1`, `2`). */
      setFloor(name) { floor = name; showFloor(); },
      setView(lat, lng, zoom, bearing, tilt) {
        map.jumpTo({ center: [lng, lat], zoom: Math.max(zoom - 1, 0), bearing: bearing || 0, pitch: tilt || 0 });
      },
      // MapLibre's padding is the SDK's: the camera's centre is the centre of what it leaves.
      // (Setting it moves the map: only when it changes.)
      setPadding(edges) {
        const now = map.getPadding();
        if (['top', 'left', 'bottom', 'right'].some((edge) => now[edge] !== edges[edge])) map.setPadding(edges);
      },
      controlPadding() {
        return controlPadding(map.getContainer(), '.maplibregl-ctrl-top-left', '.maplibregl-ctrl-bottom-right');
      },
      zoom() { return Math.round((map.getZoom() + 1) * 100) / 100; },
      bearing() { return map.getBearing(); },
      tilt() { return map.getPitch(); },
      center() { const c = map.getCenter().wrap(); return { lat: c.lat, lng: c.lng }; },
      size() { const c = map.getContainer(); return { x: c.clientWidth, y: c.clientHeight }; },
      onMoveEnd(handler) { map.on('moveend', handler); },
      setLook(look) {
        const query = new URLSearchParams({ scheme: look.scheme, hl: look.language });
        if (layers(look)) query.set('layers', layers(look));
        const url = '/styles/' + look.mapType + '.json?' + query.toString();
        // A whole new style (no diff), so that 'style.load' adds the drawn lines to it again.
        if (url !== styleURL) { styleURL = url; map.setStyle(url, { diff: false }); }
      },
      box() { const b = map.getBounds(); return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]; },
      stopAlerts(list) {
        for (const marker of alertMarkers) marker.remove();
        alertMarkers.length = 0;
        for (const entry of list) {
          const dot = document.createElement('div');
          dot.className = 'stop-alert';
          dot.textContent = '!';
          dot.setAttribute('title', entry.properties.stop + ': ' + (entry.properties.header || ''));
          const marker = new maplibregl.Marker({ element: dot }).setLngLat(entry.geometry.coordinates)
            .setPopup(new maplibregl.Popup({ offset: 12 }).setDOMContent(alertBox(entry.properties))).addTo(map);
          alertMarkers.push(marker);
        }
      },
      vehicles(list) {
        vehicleList = list;
        if (map.getSource('vehicles')) map.getSource('vehicles').setData(features(vehicleList));
      },
      clear() {
        lines.length = 0;
        areas.length = 0;
        for (const marker of markers) marker.remove();
        markers.length = 0;
        refresh();
      },
      area(rings, options) {
        const closed = rings.map((ring) => {
          const points = ring.map((p) => [p[1], p[0]]);
          if (points.length) points.push(points[0]);
          return points;
        });
        areas.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates: closed },
          properties: { fill: options.fill, opacity: options.opacity, stroke: options.stroke } });
        refresh();
      },
      line(points, options) {
        lines.push({
          type: 'Feature', geometry: { type: 'LineString', coordinates: points.map((p) => [p[1], p[0]]) },
          properties: { color: options.color, width: options.weight, opacity: options.opacity,
            dashed: !!(options.dash && options.dash.length) },
        });
        refresh();
      },
      pin(lat, lng, glyph, title, selected, content) {
        const options = glyph ? { element: glyphHead(glyph, selected), anchor: 'bottom' } : {};
        const marker = new maplibregl.Marker(options).setLngLat([lng, lat]);
        const node = marker.getElement();
        node.setAttribute('title', title || '');
        node.setAttribute('aria-label', title || '');
        node.setAttribute('role', 'img');
        if (content) marker.setPopup(new maplibregl.Popup({ offset: 28 }).setDOMContent(content()));
        marker.addTo(map);
        markers.push(marker);
        return { openPopup() { if (!marker.getPopup().isOpen()) marker.togglePopup(); } };
      },
      me(lat, lng, accuracy, title) {
        if (me) me.remove();
        const dot = document.createElement('div');
        dot.className = 'me';
        dot.setAttribute('title', title);
        me = new maplibregl.Marker({ element: dot }).setLngLat([lng, lat]).addTo(map);
        areas.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [circle(lat, lng, accuracy)] },
          properties: {} });
        refresh();
      },
    };
  }

  return {
    /** The map in `element`: MapLibre where WebGL is drawn and `?map=leaflet` does not ask
     * otherwise, else Leaflet. */
    create(element, labels) {
      const asked = new URLSearchParams(window.location.search).get('map');
      if (asked !== 'leaflet' && vectorAvailable()) {
        try { return maplibre(element, labels); } catch (e) { /* Leaflet below */ }
      }
      return leaflet(element, labels);
    },
  };
})();
