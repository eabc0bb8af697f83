// Offline use: registers the service worker (web/sw.js) once Python has loaded, so the worker's
// downloads (the whole site, about 13 MB) come after the page's own and mostly from the HTTP
// cache. Browsers offer service workers only on secure origins (https, or http on localhost and
// 127.0.0.1); elsewhere the page simply works online only.
//
// document.documentElement.dataset.offline tells tests and curious people where things stand:
// "unsupported" | "installing" | "ready" (the site is kept and this page is served by the worker)
// | "failed" (the reason is logged to the console). Once "ready", the header's "Works offline"
// note (#offline-note) shows.

export function keepOffline(ready) {
  const root = document.documentElement;
  if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    root.dataset.offline = "unsupported";
    return;
  }
  const container = navigator.serviceWorker;
  const note = document.getElementById("offline-note");
  const markReady = () => {
    if (!container.controller) return;
    root.dataset.offline = "ready";
    if (note) note.hidden = false;
  };
  container.addEventListener("controllerchange", markReady);
  markReady();
  Promise.resolve(ready).then(async () => {
    if (!container.controller) root.dataset.offline = "installing";
    // updateViaCache "none": look for a new build past the HTTP cache on every visit.
    await container.register(new URL("../sw.js", import.meta.url), { updateViaCache: "none" });
    markReady();
  }).catch((error) => {
    // A page whose Python failed to load still works as far as it can; only offline is lost.
    if (root.dataset.offline !== "ready") root.dataset.offline = "failed";
    console.warn(`pysolver: offline copy not kept (${error?.message || error})`);
  });
}
