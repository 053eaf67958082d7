// Board settings that follow the account (docs/design.md "Players"), on any family's board
// (the element marked data-board): static/kit/settings.js does the work once the board is drawn.

import { followAccount, whenReady } from "../kit/settings.js";

function csrf() {
  const boot = document.getElementById("bootstrap");
  return boot ? JSON.parse(boot.textContent).csrf : "";
}

const root = document.querySelector("[data-board]");
if (root) whenReady(root, () => followAccount(root, csrf()).catch(() => {}));
