// Page entry point. Boot contract (relied on by browser tests and power users):
// window.pysolver = { solve(request) -> Promise<response>, ready: Promise }.
import { createSolver } from "./solver.js";

const solver = createSolver();
window.pysolver = { solve: (request, options) => solver.solve(request, options), ready: solver.ready };

const status = document.getElementById("status");
solver.ready.then(
  () => { status.textContent = "Ready"; status.dataset.state = "ready"; },
  (error) => { status.textContent = `Python failed to load: ${error.message}`; status.dataset.state = "error"; },
);
