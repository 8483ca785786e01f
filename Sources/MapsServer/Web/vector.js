// The vector map: MapLibre GL JS drawing OpenMaps' vector tiles in the style the query asks
// for (/vector?type=normal&scheme=dark&layers=transit&hl=hi), the camera in the hash
// (#zoom/lat/lon/bearing/pitch, MapLibre's zoom: one less than a Google link's).
(function () {
  "use strict";
  var query = new URLSearchParams(window.location.search);
  var type = query.get("type") || "normal";
  var style = new URLSearchParams();
  ["scheme", "layers", "hl"].forEach(function (name) {
    if (query.get(name)) { style.set(name, query.get(name)); }
  });
  var map = new maplibregl.Map({
    container: "map",
    style: "/styles/" + encodeURIComponent(type) + ".json" + (style.toString() ? "?" + style.toString() : ""),
    center: [24.9384, 60.1699],
    zoom: 13,
    hash: true,
    maxPitch: 85,
    // Kept after each frame, so the picture can be saved (and checked) as it shows.
    canvasContextAttributes: { preserveDrawingBuffer: true },
    attributionControl: { compact: false }
  });
  map.addControl(new maplibregl.NavigationControl({ visualizePitch: true }));
  window.OpenMapsLabels.attach(map);
  map.on("idle", function () { document.body.setAttribute("data-idle", "true"); });
  map.on("error", function (event) {
    document.body.setAttribute("data-error", String(event && event.error && event.error.message || event));
  });
  window.openmapsMap = map;
})();
