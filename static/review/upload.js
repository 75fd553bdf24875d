// The record upload: a file too big to be a record (a photo picked by
// mistake) is refused here, with the server's words, before it is sent.
(function () {
  "use strict";
  const input = document.getElementById("record");
  const problem = document.getElementById("upload-problem");
  if (!input || !problem) return;
  input.form.addEventListener("submit", (event) => {
    const file = input.files[0];
    if (!file || file.size <= Number(input.dataset.limit)) return;
    event.preventDefault();
    // Shown first, then filled: the alert is read out when its words come.
    problem.hidden = false;
    problem.replaceChildren(Object.assign(document.createElement("p"), { textContent: input.dataset.tooLarge }));
    input.focus();
  });
})();
