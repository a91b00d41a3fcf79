// Translated strings rendered into the page by Django (json_script "client-strings").
const element = document.getElementById("client-strings");
const catalog = element ? JSON.parse(element.textContent) : {};

/** The translation of `key`, with `{name}` placeholders replaced from `params`. */
export function t(key, params = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The translated name of a colour ("black", "white", "red", "green", "neutral"). */
export function colorName(color) {
  return t(`color.${color}`);
}

/** What to show for an API error: the server's message (in the page's language), or ours for
 * a request that never reached it. */
export function errorText(error) {
  return error.code === "network" ? t("error.network") : error.message;
}
