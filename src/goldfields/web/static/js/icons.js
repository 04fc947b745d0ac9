// The inline SVG sprite: drawn here, so the pages load no image file and need no network.
// Use with dom.icon("name").

const SYMBOLS = {
  // A mine entrance: timber frame over a dark shaft.
  mine: `<path d="M3 21V9.5L12 3l9 6.5V21h-4v-7a5 5 0 0 0-10 0v7z" fill="currentColor"/>
         <path d="M9 21v-6.5a3 3 0 0 1 6 0V21z" fill="#1a120b" opacity=".85"/>`,
  // A treasure chest.
  chest: `<path d="M3 10a5 4 0 0 1 5-4h8a5 4 0 0 1 5 4v1H3z" fill="currentColor"/>
          <path d="M3 12h18v8H3z" fill="currentColor"/>
          <path d="M3 11.2h18v1.6H3z M10.5 10h3v5h-3z" fill="#1a120b" opacity=".7"/>`,
  // Crossed planks nailed over a shaft: the closed-mine card.
  planks: `<path d="M4 6.5 6.5 4 20 17.5 17.5 20z M17.5 4 20 6.5 6.5 20 4 17.5z" fill="currentColor"/>
           <circle cx="12" cy="12" r="1.6" fill="#1a120b"/>`,
  // A bandit's hat and mask.
  bandit: `<path d="M2 11c3-1 5-1.5 5-1.5L8.5 4h7L17 9.5s2 .5 5 1.5c-3 1.5-17 1.5-20 0z" fill="currentColor"/>
           <path d="M5 14h14c0 2-2 3-4 3-1.5 0-2-1-3-1s-1.5 1-3 1c-2 0-4-1-4-3z" fill="currentColor"/>`,
  pickaxe: `<path d="M3 8c4-4 10-5 15-2-4-.5-7 .5-9 2.5z M21 16c-4-4-5-10-2-15 .5 4 0 7-2.5 9z" fill="currentColor"/>
            <path d="m13.5 8.5 2 2L5 21l-2-2z" fill="currentColor"/>`,
  hourglass: `<path d="M6 2h12v2h-1v3a5 5 0 0 1-3 4.5v1A5 5 0 0 1 17 17v3h1v2H6v-2h1v-3a5 5 0 0 1 3-4.5v-1A5 5 0 0 1 7 7V4H6z
                M9 4v3a3 3 0 0 0 2 2.8V10h2v-.2A3 3 0 0 0 15 7V4z M12 14c-1.5 0-3 1.5-3 3.5V20h6v-2.5c0-2-1.5-3.5-3-3.5z"
              fill="currentColor"/>`,
  cards: `<path d="M7 3h10a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm0 2v14h10V5z"
          fill="currentColor"/><path d="M3 7v12a4 4 0 0 0 4 4h8v-2H7a2 2 0 0 1-2-2V7z" fill="currentColor" opacity=".6"/>`,
  bot: `<path d="M11 2h2v3h4a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4zM8.5 10a1.5 1.5 0 1 0
        0 3 1.5 1.5 0 0 0 0-3zm7 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM9 15.5v1.5h6v-1.5z" fill="currentColor"/>`,
  user: `<circle cx="12" cy="8" r="4.5" fill="currentColor"/><path d="M3 21a9 7 0 0 1 18 0z" fill="currentColor"/>`,
  link: `<path d="M10 14a4 4 0 0 0 5.7 0l3.5-3.5a4 4 0 0 0-5.7-5.7l-1.2 1.2 1.4 1.4 1.2-1.2a2 2 0 0 1 2.9 2.9L14.3
         12.6a2 2 0 0 1-2.9 0z M14 10a4 4 0 0 0-5.7 0l-3.5 3.5a4 4 0 0 0 5.7 5.7l1.2-1.2-1.4-1.4-1.2 1.2a2 2 0 0
         1-2.9-2.9l3.5-3.5a2 2 0 0 1 2.9 0z" fill="currentColor"/>`,
  crate: `<path d="M3 6h18v14H3z" fill="currentColor"/><path d="M5 8h14v2H5zm0 4h14v2H5zm0 4h14v2H5z"
          fill="#1a120b" opacity=".35"/>`,
  dice: `<rect x="3.5" y="3.5" width="17" height="17" rx="4" fill="none" stroke="currentColor" stroke-width="2"/>
         <circle cx="8.5" cy="8.5" r="1.7" fill="currentColor"/><circle cx="15.5" cy="15.5" r="1.7" fill="currentColor"/>
         <circle cx="12" cy="12" r="1.7" fill="currentColor"/>`,
  book: `<path d="M4 4a2 2 0 0 1 2-2h13v17H6.5a1.5 1.5 0 0 0 0 3H19v0H6a2 2 0 0 1-2-2z" fill="currentColor"/>`,
  swords: `<path d="M3 3h4l8 8-2 2-8-8z M21 3h-4l-8 8 2 2 8-8z M5 17l3-3 2 2-3 3 1.5 1.5-1.5 1.5L3 18.5 4.5
           17z M19 17l-3-3-2 2 3 3-1.5 1.5 1.5 1.5 4-4-1.5-1.5z" fill="currentColor"/>`,
  bell: `<path d="M12 2a1.5 1.5 0 0 1 1.5 1.5v.7A6 6 0 0 1 18 10v5l2 2v1H4v-1l2-2v-5a6 6 0 0 1 4.5-5.8v-.7A1.5 1.5 0 0 1 12
         2zm-2 17h4a2 2 0 0 1-4 0z" fill="currentColor"/>`,
  bellOff: `<path d="M12 2a1.5 1.5 0 0 1 1.5 1.5v.7A6 6 0 0 1 18 10v5l2 2v1H4v-1l2-2v-5a6 6 0 0 1 4.5-5.8v-.7A1.5 1.5 0 0
            1 12 2zm-2 17h4a2 2 0 0 1-4 0z" fill="currentColor" opacity=".45"/><path d="M3 4.5 4.5 3l16.5 16.5-1.5 1.5z"
            fill="currentColor"/>`,
  play: `<path d="M7 4v16l13-8z" fill="currentColor"/>`,
};

export function installIcons() {
  if (document.getElementById("gf-icons")) return;
  const defs = Object.entries(SYMBOLS)
    .map(([name, body]) => `<symbol id="i-${name}" viewBox="0 0 24 24">${body}</symbol>`)
    .join("");
  const holder = document.createElement("div");
  holder.innerHTML = `<svg id="gf-icons" xmlns="http://www.w3.org/2000/svg" display="none">${defs}</svg>`;
  document.body.prepend(holder.firstChild);
}
