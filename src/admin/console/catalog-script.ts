/**
 * Progressive enhancement of the catalog pages (without script the forms post as usual and
 * the same loads run).
 *
 * UPLOAD_SCRIPT: the file goes up in parts (catalog-loads.ts) with a progress bar, each part
 * tried three times, then the load starts and the browser opens its page. Parts keep every
 * request inside Workers' body limits, so files larger than the form alone takes load too.
 *
 * LOAD_PAGE_SCRIPT: a running load's page fetches itself every second and swaps in the new
 * status (the server's own markup); once the load ends it swaps the whole page and stops.
 */
export const UPLOAD_SCRIPT = `(() => {
  const say = (box, text, error) => {
    box.hidden = false;
    const span = box.querySelector("span");
    span.textContent = text;
    box.classList.toggle("error", Boolean(error));
    if (error) { box.setAttribute("role", "alert"); span.tabIndex = -1; span.focus(); }
  };
  async function send(url, init) {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(url, init);
        if (res.ok || res.status < 500 || attempt >= 3) return res;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "catalog-upload") return;
    const file = form.querySelector("input[type=file]").files[0];
    if (!file) return;
    event.preventDefault();
    const box = form.querySelector("#upload-progress");
    const bar = box.querySelector("progress");
    const button = form.querySelector("button[type=submit]");
    const csrf = form.querySelector("input[name=_csrf]").value;
    button.disabled = true;
    say(box, "Starting the upload…");
    try {
      const start = new FormData();
      start.set("_csrf", csrf);
      start.set("file_name", file.name);
      start.set("file_size", String(file.size));
      const created = await send("/admin/catalog/loads", { method: "POST", body: start });
      const load = await created.json();
      if (!created.ok) throw new Error(load.message || "The upload was refused.");
      const base = "/admin/catalog/loads/" + encodeURIComponent(load.id);
      const headers = { "x-console-csrf": csrf, "content-type": "application/octet-stream" };
      for (let part = 0; part < load.parts; part++) {
        const from = part * load.part_bytes;
        const res = await send(base + "/parts/" + part, { method: "POST", headers, body: file.slice(from, from + load.part_bytes) });
        if (!res.ok) throw new Error((await res.json()).message || "A part of the file was refused.");
        const sent = Math.min(file.size, from + load.part_bytes);
        bar.value = Math.round((sent / file.size) * 100);
        say(box, "Uploading " + bar.value + "% (" + sent.toLocaleString() + " of " + file.size.toLocaleString() + " bytes)");
      }
      const started = await send(base + "/start", { method: "POST", headers });
      const answer = await started.json();
      if (!started.ok) {
        if (answer.running) { location.assign(answer.running); return; }
        throw new Error(answer.message || "The load did not start.");
      }
      say(box, "Uploaded; opening the load's progress…");
      location.assign(answer.page);
    } catch (e) {
      button.disabled = false;
      say(box, "Not uploaded: " + e.message, true);
    }
  });
})();`;

export const LOAD_PAGE_SCRIPT = `(() => {
  const tick = async () => {
    const status = document.querySelector("#load-status");
    if (!status || !status.dataset.running) return;
    try {
      const res = await fetch(location.href, { headers: { accept: "text/html" } });
      const next = new DOMParser().parseFromString(await res.text(), "text/html");
      const fresh = next.querySelector("#load-status");
      if (fresh && fresh.dataset.running) {
        status.replaceWith(document.adoptNode(fresh));
      } else {
        document.querySelector("main").replaceWith(document.adoptNode(next.querySelector("main")));
        document.title = next.title;
        const focus = document.querySelector("[role=alert]") || document.querySelector("h2");
        if (focus) { focus.tabIndex = -1; focus.focus(); }
        return;
      }
    } catch {}
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
})();`;
