// Trunk initializer: turns a failed wasm load into a readable message instead of a blank canvas.
export default function initializer() {
  return {
    onFailure(error) {
      const status = document.getElementById("status");
      if (status) {
        status.textContent = "Friction Lab could not start: the WebAssembly module failed to load (" +
          String(error && error.message ? error.message : error) + "). Try reloading, or use a current browser.";
        status.className = "error";
      }
      console.warn("wasm load failed", error);
    },
  };
}
