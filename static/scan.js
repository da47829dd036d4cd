// The Scan buttons: reads a QR code with the phone's camera, or from a photo of it (the camera
// app, where the page may not open the camera), and opens the page its link names on this server
// (#scan-box holds the camera's picture and what was read). Two uses, told apart by the box:
// - the table page's Scan label button (templates/scoring/table.html, beside the set; no
//   data-prefix): a set label's link, /entry/scan/<payload> (scoring.table_views.scan), which
//   refuses a set that is not at this table now before anything is typed; a label of another event
//   (data-event) is refused here;
// - the staff's wall-sticker pages (templates/walls/_sticker_scan.html, walls.rebuild_views):
//   data-prefix="/W/<event number>/ /w/<slug>/" takes a sticker's link (walls.setcode.SetId.slot_url,
//   either form) of this event,
//   opened with a trailing slash and data-query appended (check=1 in the check walk); a link of
//   another event under data-family ("/W/ /w/") is refused with data-other-event.
// Decoding is ZXing-C++ compiled to WebAssembly (static/vendor/zxing-wasm, served with the other
// static files: nothing is fetched from elsewhere). The live camera needs a secure page (HTTPS, or
// the laptop itself); on a venue's plain-HTTP address the button says so (data-insecure: ask the
// director for the https address) and opens the camera app for a photo instead. Without this script the button stays hidden, and the phone's own camera app opens the
// printed link all the same.
(function () {
  'use strict';
  var box = document.getElementById('scan-box');
  if (!box || !window.ZXingWASM || !window.URL || !window.Promise) return;
  var status = document.getElementById('scan-status');
  var video = document.getElementById('scan-video');
  var photo = document.getElementById('scan-photo');
  var button = document.getElementById('scan-camera');
  var options = { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 1 };
  var stream = null;
  var timer = null;

  window.ZXingWASM.prepareZXingModule({
    overrides: {
      locateFile: function (path, prefix) { return /\.wasm$/.test(path) ? box.dataset.wasm : prefix + path; }
    }
  });

  function say(text) { status.textContent = text; box.hidden = !text && video.hidden; }

  function stop() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; }
    video.hidden = true;
    box.hidden = !status.textContent;
  }

  var prefixes = (box.dataset.prefix || '/entry/scan/').split(' ');
  var sticker = !!box.dataset.prefix;

  // Where in path the first of words starts, with the word found: [-1, ''] for none.
  function find(path, words) {
    for (var i = 0; i < words.length; i++) {
      var at = path.indexOf(words[i]);
      if (at >= 0) return [at, words[i]];
    }
    return [-1, ''];
  }

  // Open the page a label's or sticker's link names, on this server whatever address it was printed with.
  function open(text) {
    var url = null;
    try { url = new URL(text, window.location.href); } catch (e) { url = null; }
    var found = url ? find(url.pathname, prefixes) : [-1, ''];
    var at = found[0], prefix = found[1];
    if (at < 0) {
      var family = box.dataset.family;
      say(family && url && find(url.pathname, family.split(' '))[0] >= 0 ? box.dataset.otherEvent : box.dataset.notLabel);
      return false;
    }
    var path = url.pathname.slice(at);
    if (sticker) {
      if (path.slice(-1) !== '/') path += '/';
      if (box.dataset.query) path += '?' + box.dataset.query;
    } else {
      var payload = decodeURIComponent(path.slice(prefix.length));
      if (payload.split('|')[1] !== box.dataset.event) { say(box.dataset.otherEvent); return false; }
    }
    stop();
    say(box.dataset.opening);
    window.location.assign(path);
    return true;
  }

  function read(source) {
    return window.ZXingWASM.readBarcodes(source, options).then(function (found) {
      var valid = found.filter(function (r) { return r.isValid && r.text; });
      return valid.length ? valid[0].text : null;
    });
  }

  photo.addEventListener('change', function () {
    if (!photo.files || !photo.files.length) return;
    say(box.dataset.looking);
    read(photo.files[0]).then(function (text) {
      if (!text) say(box.dataset.noCode);
      else open(text);
    }, function () { say(box.dataset.noCode); });
    photo.value = '';
  });

  function look(canvas) {
    if (!stream) return;
    if (video.videoWidth) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      var context = canvas.getContext('2d', { willReadFrequently: true });
      context.drawImage(video, 0, 0);
      read(context.getImageData(0, 0, canvas.width, canvas.height)).then(function (text) {
        if (!(text && open(text))) timer = setTimeout(function () { look(canvas); }, 250);
      }, function () { timer = setTimeout(function () { look(canvas); }, 250); });
      return;
    }
    timer = setTimeout(function () { look(canvas); }, 250);
  }

  button.addEventListener('click', function () {
    if (stream) { stop(); say(''); return; }
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      // a plain-HTTP page (browsers open the camera on secure pages only): say why, and take a photo
      say(window.isSecureContext ? box.dataset.noCamera : (box.dataset.insecure || box.dataset.noCamera));
      photo.click();
      return;
    }
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }).then(function (s) {
      stream = s;
      video.srcObject = s;
      video.hidden = false;
      box.hidden = false;
      video.play();
      say(box.dataset.looking);
      look(document.createElement('canvas'));
    }, function () {
      say(box.dataset.noCamera);
      photo.click();
    });
  });

  button.hidden = false;
})();
