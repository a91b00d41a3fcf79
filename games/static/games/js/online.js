// Who is online, as the lobby and the watch page say it: the accounts by name (the first ones),
// how many more accounts, and how many people without one.
import { t } from "./i18n.js";

/**
 * @param {{names: string[], accounts: number, guests: number}} online
 * @returns {string}
 */
export function onlineText({ names, accounts, guests }) {
  const who = [...names];
  if (accounts > names.length) who.push(t("online.more", { count: accounts - names.length }));
  if (guests) who.push(t("watch.guests", { count: guests }));
  return who.length ? t("watch.online", { names: who.join(", ") }) : "";
}
