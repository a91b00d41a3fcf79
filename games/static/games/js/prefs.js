// Viewer preferences remembered in this browser (localStorage), e.g. legal-move dots, sound.

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
