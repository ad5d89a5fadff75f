// Wiring only: waits for the wasm module and asks it to draw. No physics here.
function main(bindings) {
  const canvas = document.getElementById("plot");
  const status = document.getElementById("status");
  const draw = () => bindings.drawStribeck(canvas, 1.0, 0.05);
  draw();
  status.textContent = "Steady-state Stribeck curve of the FrBD letter (Table I).";
  new ResizeObserver(draw).observe(canvas);
}

if (window.wasmBindings) {
  main(window.wasmBindings);
} else {
  addEventListener("TrunkApplicationStarted", () => main(window.wasmBindings), { once: true });
}
