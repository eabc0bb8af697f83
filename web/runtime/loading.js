// The loading bar beside the status line (#load-progress in index.html): it follows the bytes of
// the runtime's downloads that the solver reports while Python loads (web/runtime/solver.js status
// {state, message, progress: {loaded, total}}), and goes away once Python is ready or failed.
// The words ("Loading Python: downloading the standard library (4.2 of 12.3 MB)…") are the
// status line's, set by the page from the same status.

export function showLoading(solver) {
  const bar = document.getElementById("load-progress");
  if (!bar) return;
  solver.onStatus(({ state, progress }) => {
    const loading = state === "loading" || state === "restarting";
    bar.hidden = !loading;
    if (!loading) return;
    if (progress && progress.total > 0) bar.value = Math.min(1, progress.loaded / progress.total);
    else bar.removeAttribute("value"); // indeterminate until the first download reports
  });
}
