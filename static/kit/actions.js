// The action controller every family's page sends its moves through (docs/api.md): one move
// at a time, in the order they were made. A move made while another is on its way (a tile
// dropped on the train while the draw is still being answered) waits its turn and goes with
// the seq the first one's answer brings, instead of being lost. Refusals are said in one place.

/**
 * `client` is a kit Client; `onBusy(busy)` redraws the controls; `say(text, kind)` shows a
 * message; `sound(name)` plays one. `send(action, extra, {quiet})` answers {ok, status, data};
 * a quiet refusal is left to the caller to explain.
 */
export function createActions({ client, onBusy = () => {}, say = () => {}, sound = () => {} }) {
  let queue = Promise.resolve();
  let busy = false;

  async function post(action, extra, quiet) {
    busy = true;
    onBusy(true);
    let result;
    try {
      result = await client.post(action, extra);
    } finally {
      busy = false;
    }
    if (result.ok) say("");
    else if (quiet) {
      // the caller says what went wrong, or tries again
    } else if (result.status === 409) {
      say("The game moved on while you played; the board is up to date again.", "error");
    } else {
      say(result.data?.message || `The server refused that (${result.status}).`, "error");
      sound("deny");
    }
    onBusy(false);
    return result;
  }

  return {
    send(action, extra = {}, { quiet = false } = {}) {
      const run = queue.then(() => post(action, extra, quiet));
      queue = run.catch(() => {});
      return run;
    },
    get busy() {
      return busy;
    },
  };
}
