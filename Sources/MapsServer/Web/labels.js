// Labels MapLibre GL JS cannot shape (Devanagari and the other scripts its text engine draws
// letter by letter) come from the style as images named `label:KIND:TEXT`; this fetches each
// from the server, which shapes them as the PNG maps are shaped, and adds it to the map.
// The address is the style's metadata `openmaps:label-pictures` (a URL with `{kind}`).
'use strict';

window.OpenMapsLabels = (function () {
  const prefix = 'label:';
  const key = 'openmaps:label-pictures';

  /** Makes `map` fetch the pictures of the labels its style leaves to the server. */
  function attach(map) {
    // Ids asked for in the current style, so that each is fetched once.
    let asked = new Set();
    map.on('style.load', () => { asked = new Set(); });
    map.on('styleimagemissing', (event) => {
      const id = event.id;
      if (!id || !id.startsWith(prefix) || asked.has(id)) return;
      const style = map.getStyle();
      const template = style && style.metadata && style.metadata[key];
      if (!template) return;
      const rest = id.slice(prefix.length);
      const colon = rest.indexOf(':');
      if (colon <= 0) return;
      asked.add(id);
      const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), 4);
      const url = template.replace('{kind}', encodeURIComponent(rest.slice(0, colon))) +
        '&text=' + encodeURIComponent(rest.slice(colon + 1)) + '&scale=' + ratio;
      fetch(url)
        .then((response) => { if (!response.ok) throw new Error(response.status); return response.blob(); })
        .then((blob) => createImageBitmap(blob))
        .then((image) => {
          // A style loaded meanwhile has asked again, under its own set.
          if (!map.hasImage(id)) map.addImage(id, image, { pixelRatio: ratio });
        })
        .catch(() => { /* the name stays unwritten, as a missing icon does */ });
    });
  }

  return { attach: attach };
})();
