{% load static %}// The table page's service worker (scoring.table_views.service_worker, served at /sw.js): keeps the
// table page and the static files on the phone so that the page reloads without a connection; the
// hands typed meanwhile wait in the page's own queue (static/offline.js), which sends them with
// their request keys when the connection returns. Workbox from the static files (static/vendor/workbox).
importScripts('{% static "vendor/workbox/workbox-sw.js" %}');
var MODULES = {{ modules|safe }};  // JSON from the view: the static URL of each module
workbox.setConfig({ debug: false, modulePathCb: function (name) { return MODULES[name]; } });

var dropQuery = {  // one cached copy per table page, whatever its ?set= or ?confirm=
  cacheKeyWillBeUsed: async function (params) {
    var url = new URL(params.request.url);
    url.search = '';
    url.hash = '';
    return url.href;
  }
};

workbox.routing.registerRoute(
  function (options) { return options.request.mode === 'navigate' && /^\/e\/[^/]+\/table\/\d+\/$/.test(options.url.pathname); },
  // the network first, always: a slow server is waited for (a kept page only when there is no connection)
  new workbox.strategies.NetworkFirst({ cacheName: 'dmj-table-pages', plugins: [dropQuery] })
);
workbox.routing.registerRoute(
  function (options) { return options.url.origin === self.location.origin && options.url.pathname.indexOf('{% get_static_prefix %}') === 0; },
  new workbox.strategies.StaleWhileRevalidate({ cacheName: 'dmj-static' })
);

self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });
