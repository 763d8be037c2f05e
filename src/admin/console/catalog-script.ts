/**
 * The upload form's progressive enhancement: the file goes up by XMLHttpRequest so the page
 * can show how much is sent, then "checking and writing" until the answer. A redirect (the
 * catalog loaded) is followed as a page load; any other answer (problems, too large) replaces
 * the page's main content, whose markup is the server's own. Without script the form posts
 * as usual and the same pages come back.
 */
export const UPLOAD_SCRIPT = `(() => {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "catalog-upload") return;
    event.preventDefault();
    const box = form.querySelector("#upload-progress");
    const bar = box.querySelector("progress");
    const text = box.querySelector("span");
    const button = form.querySelector("button[type=submit]");
    box.hidden = false;
    button.disabled = true;
    text.textContent = "Uploading…";
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.responseType = "document";
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      const pct = Math.round((e.loaded / e.total) * 100);
      bar.value = pct;
      text.textContent = "Uploading " + pct + "%";
    };
    xhr.upload.onload = () => {
      bar.removeAttribute("value");
      text.textContent = "Uploaded; checking every row and writing…";
    };
    xhr.onload = () => {
      if (xhr.responseURL && new URL(xhr.responseURL).pathname !== new URL(form.action).pathname) {
        location.assign(xhr.responseURL);
        return;
      }
      const next = xhr.response && xhr.response.querySelector("main");
      if (!next) { form.submit(); return; }
      document.querySelector("main").replaceWith(document.adoptNode(next));
      document.title = xhr.response.title;
      const focus = document.querySelector("[role=alert]") || document.querySelector("h1");
      if (focus) { focus.tabIndex = -1; focus.focus(); }
    };
    // The request never got an answer (a lost connection): post the form the ordinary way.
    xhr.onerror = () => {
      text.textContent = "Sending again without progress…";
      form.submit();
    };
    xhr.send(new FormData(form));
  });
})();`;
