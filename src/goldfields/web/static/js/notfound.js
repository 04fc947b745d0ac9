// The page for an address the server has no page at (404.html): said in the visitor's language.

import { applyI18n, initLanguagePicker, onLanguage } from "./i18n.js";
import { installIcons } from "./icons.js";

installIcons();
initLanguagePicker(document.getElementById("lang"));
applyI18n(document);
onLanguage(() => applyI18n(document));
