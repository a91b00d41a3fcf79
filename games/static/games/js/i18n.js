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

/** A translated message for an API error, or the server's own (English) message. */
export function errorText(error) {
  const key = `error.${error.code}`;
  return key in catalog ? catalog[key] : error.message;
}
