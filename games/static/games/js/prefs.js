// Viewer preferences remembered in this browser (localStorage): switches (legal-move dots,
// sound) and choices among a few values (board and disc themes).

const PREFIX = "reversi.";

/** Read a boolean preference, `fallback` when it was never set or storage is unavailable. */
export function getPref(name, fallback) {
  try {
    const value = localStorage.getItem(PREFIX + name);
    return value === null ? fallback : value === "1";
  } catch {
    return fallback;
  }
}

/** Remember a boolean preference. */
export function setPref(name, value) {
  try {
    localStorage.setItem(PREFIX + name, value ? "1" : "0");
  } catch {
    // Private mode or storage disabled: the choice lasts for this page only.
  }
}

/** Read a preference that is one of `choices`, `fallback` when unset, unknown or unavailable. */
export function getChoice(name, choices, fallback) {
  try {
    const value = localStorage.getItem(PREFIX + name);
    return choices.includes(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

/** Remember a preference that is one of a list of choices. */
export function setChoice(name, value) {
  try {
    localStorage.setItem(PREFIX + name, value);
  } catch {
    // As above: the choice lasts for this page only.
  }
}
