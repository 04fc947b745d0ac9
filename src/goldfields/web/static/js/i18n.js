// English, French and German: every text of the client, the rules in short, and the
// chosen language (kept in localStorage). t("key", {name}) fills {name} placeholders.

// A cycle (cards.js reads t from here) that is safe: each uses the other only when called.
import { cardName } from "./cards.js";

export const LANGS = { en: "English", fr: "Français", de: "Deutsch" };

const en = {
  "app.tagline": "Gold-rush games at one table: Knizia's Digging and Fraga's Digger, with friends or bots.",
  "lang.label": "Language",
  "nav.lobby": "Lobby",
  "game.digging": "Digging",
  "game.digger": "Digger",
  "status.waiting": "waiting for players",
  "status.expired": "expired: nobody joined in time",
  "status.playing": "playing",
  "status.finished": "finished",
  "common.you": "you",
  "common.bot": "bot",
  "common.and": "and",
  "common.cancel": "Cancel",
  "common.close": "Close",
  "common.continue": "Continue",

  "conn.connecting": "connecting…",
  "conn.online": "online",
  "conn.offline": "offline: retrying in {n} s",
  "conn.gone": "table not found",
  "conn.notSent": "Not connected: the move was not sent. Reconnecting…",

  "err.stale": "The table had moved on: catching up.",
  "err.turn": "It is not your turn.",
  "err.end": "The game is over.",
  "err.not_started": "The game starts when every human seat is taken.",
  "err.auth": "This browser's key for that seat is not valid: you are watching instead.",
  "err.spectator": "Spectators cannot move.",
  "err.seat_taken": "That seat is already taken.",
  "err.no_such_table": "This table does not exist.",
  "err.no_such_seat": "This table has no such seat.",
  "err.server": "The server could not save the move; nothing changed. Try again.",
  "err.network": "The server cannot be reached.",
  "err.bad_config": "The server refused these settings: {message}",
  "err.bad_request": "The server refused the request: {message}",
  "err.illegal": "Not allowed: {message}",
  "botDesc.random": "plays any legal move at random",
  "botDesc.heuristic": "plays by hand-written rules, like a sensible human",
  "botDesc.ismcts": "searches the possible hidden cards (information-set Monte Carlo tree search)",
  "botDesc.search": "weighs every roll and when to stop against the hourglass",
  "botDesc.net": "plays by its trained network alone",
  "why.game_over": "the game is over",
  "why.not_dealt": "the cards must be dealt first",
  "why.skip_when_stuck": "you may skip only when nothing else is legal",
  "why.pile_empty": "the pile is empty: no card can be drawn",
  "why.not_in_hand": "you have no {card} in hand",
  "why.pass_partnership": "passing is only allowed in the partnership game",
  "why.no_seat": "there is no seat {seat} at this table",
  "why.no_mine": "there is no mine {mine}: it has not been opened",
  "why.closed": "{mine} is closed; nothing more may be laid on it",
  "why.chest_metal": "a {chest} chest cannot go on a {metalOf} mine",
  "why.under_attack": "{mine} is under attack (rule option: no chests during a fight)",
  "why.close_needs_chest": "{mine} holds no chest (rule option: closing needs a chest)",
  "why.one_fight": "only one fight at a time, and it is over {mine}",
  "why.attacker_once": "the first attacker lays no second bandit",
  "why.joined_once": "you have had your one chance to join this fight",
  "why.fight_opponent": "a fight is only started on an opponent's mine",
  "why.fight_needs_chest": "a fight needs a mine holding at least one chest",
  "why.no_hourglass": "the hourglass runs from the turn's first roll",
  "why.rolling": "the dice are rolling; their outcome comes first",
  "why.knock_first": "whether the steal knocked a pile is decided first",
  "why.roll_first": "a turn begins with a roll of all five dice",
  "why.steal_own": "a digger steals from an opponent's crate, not from their own",
  "why.not_once": "{colour} does not show on exactly one die",
  "why.die_used": "the {colour} die has already given its one token this roll",
  "why.none_left": "no {colour} token is left in the centre",
  "why.steal_needs_black": "stealing needs black on exactly one die",
  "why.crate_empty": "that crate holds no {colour} token",
  "metalWord.G": "gold",
  "metalWord.S": "silver",
  "metalWord.C": "copper",
  "metalOf.G": "gold",
  "metalOf.S": "silver",
  "metalOf.C": "copper",
  "err.other": "Error: {message}",

  "lobby.yourName": "Your name",
  "lobby.namePlaceholder": "how others see you",
  "lobby.quickDigging": "Play Digging against bots",
  "lobby.quickDigger": "Play Digger against bots",
  "lobby.quickHint": "Four-player partnership game: you and a bot partner against two bots.",
  "lobby.quickName": "{name}: {game} against bots",
  "lobby.quickNameAnon": "{game} against bots",
  "lobby.tables": "Tables",
  "lobby.refresh": "Refresh",
  "lobby.filterStatus": "Which tables",
  "lobby.filterGame": "Which game",
  "lobby.fLive": "open and in play",
  "lobby.fOpen": "with a free seat",
  "lobby.fPlaying": "in play",
  "lobby.fFinished": "finished",
  "lobby.fAllGames": "all games",
  "lobby.more": "More tables",
  "lobby.noTables": "No table yet: create one below, or play against bots.",
  "lobby.createTitle": "Create a table",
  "lobby.game": "Game",
  "lobby.players": "Players",
  "lobby.partnership": "Partnership",
  "lobby.partnershipHint": "seats 0 + 2 (team A) against 1 + 3 (team B)",
  "lobby.partnershipShort": "partnership",
  "lobby.crates": "Crate cards",
  "lobby.cratesWhite": "white side: the same values for everyone",
  "lobby.cratesBlack": "black side: a different card per player",
  "lobby.options": "Rule options",
  "lobby.seats": "Seats",
  "lobby.seatKind": "Who plays seat {n}",
  "lobby.human": "Human",
  "lobby.botKind": "Bot: {bot}",
  "lobby.iSitHere": "I sit here",
  "lobby.justWatch": "I only watch (I will share the link)",
  "lobby.allBots": "Only bots: you will watch them play.",
  "lobby.tableName": "Table name",
  "lobby.moveSeconds": "Seconds per move",
  "lobby.noLimit": "no limit",
  "lobby.moveSecondsHint": "After that, a bot plays the move.",
  "lobby.create": "Create table",
  "lobby.noGames": "The server offers no game.",
  "lobby.join": "Join seat {n}",
  "lobby.watch": "Watch",
  "lobby.open": "Open the table",
  "lobby.resume": "Back to seat {n}",
  "lobby.openSeatN": "seat {n} open",
  "rules.heading": "The rules in short",
  "rules.title": "{game}: the rules in short",

  "share.title": "Share this table",
  "share.copy": "Copy",
  "share.copied": "Link copied.",
  "share.copyFailed": "Copy it by hand: the browser did not allow it.",
  "share.created": "Table \"{name}\" is ready.",
  "share.invite": "Send this link: a friend opens it and takes a free seat, anyone else watches.",
  "share.watchLink": "Table link",
  "share.watchHelp": "Anyone with this link can watch, or take a free seat while the table waits for players.",
  "share.seatLink": "Your seat, on another device",
  "share.seatHelp": "Private: whoever opens this link plays your seat. Keep it to yourself.",

  "table.rules": "Rules",
  "table.share": "Share",
  "table.log": "Game log",
  "table.seatN": "Seat {n}",
  "table.waitingPlayers": "Waiting for players",
  "table.waitingFor": "Waiting for {n} more player(s)",
  "table.takeSeat": "Take seat {n}",
  "table.openSeat": "open",
  "table.watching": "You are watching this table.",
  "table.playSeat": "Play my seat {n}",
  "table.botStandsIn": "A bot is playing for you while you were away.",
  "table.botTimeout": "Time ran out: a bot makes this one move for you, then the seat is yours again.",
  "table.resume": "Take my seat back",
  "table.yourTurn": "Your turn",
  "table.toMove": "{name} is playing…",
  "table.sending": "Sending…",
  "table.standin": "bot stands in",
  "table.away": "away",
  "table.record": "Game record",
  "table.backLobby": "Back to the lobby",
  "table.noToken": "This browser holds no key for seat {n}: you are watching. Open your seat link again to play.",
  "table.notFound": "This table does not exist (any more).",
  "table.noTable": "No table given.",
  "table.moveClock": "{n} s to move",

  "keys.title": "Keyboard",
  "keys.draw": "draw a card",
  "keys.pass": "pass the selected card to your partner",
  "keys.cancel": "cancel the selection",
  "keys.roll": "roll the dice",
  "keys.stop": "stop and bank the haul",

  "metal.G": "Gold",
  "metal.S": "Silver",
  "metal.C": "Copper",
  "card.mine.G": "gold mine",
  "card.mine.S": "silver mine",
  "card.mine.C": "copper mine",
  "card.chest.G": "gold chest",
  "card.chest.S": "silver chest",
  "card.chest.C": "copper chest",
  "card.double.G": "double gold chest",
  "card.double.S": "double silver chest",
  "card.double.C": "double copper chest",
  "card.close": "closed-mine card",
  "card.closeShort": "Closed",
  "card.bandit": "bandit {value}",

  "dig.dealing": "Dealing…",
  "dig.gameOver": "Game over: {winners} win",
  "dig.gameOverOne": "Game over: {winners} wins",
  "dig.pile": "Draw pile",
  "dig.pileCount": "{n} in the pile",
  "dig.handNo": "Hand {n}",
  "dig.lastRound": "Last round: {n} turn(s) left",
  "dig.target": "Target {n}",
  "dig.targetLong": "The game ends after a hand in which a side reaches {n}.",
  "dig.partner": "partner",
  "dig.teamA": "Team A",
  "dig.teamB": "Team B",
  "dig.mayJoin": "may join the fight",
  "dig.handSize": "Cards in hand",
  "dig.handPoints": "Points from closed mines this hand",
  "dig.pts": "{n} pts",
  "dig.noMines": "No mine yet.",
  "dig.openMine": "Open the mine here",
  "dig.openThere": "Open it in {name}'s display",
  "dig.partnerHolds": "You know your partner holds:",
  "dig.chestCount": "{n} chest(s)",
  "dig.doubled": "doubled: its first chest is a double chest",
  "dig.closed": "closed",
  "dig.closedPts": "closed, {n} points",
  "dig.openWorth": "open, worth {n} once closed",
  "dig.underAttack": "under attack",
  "dig.yourHand": "Your hand",
  "dig.emptyHand": "No card in hand.",
  "dig.draw": "Draw",
  "dig.passPartner": "Pass to partner",
  "dig.skip": "Skip (nothing is playable)",
  "dig.hintWait": "Wait for your turn; you can look at the table meanwhile.",
  "dig.hintSkip": "Nothing in your hand can be played: you must skip.",
  "dig.hintTarget": "Where does the {card} go? Choose a highlighted mine or display.",
  "dig.hintPassOnly": "The {card} can go nowhere on the table: pass it to your partner (P).",
  "dig.mineToDisplay": "A {card} opens a new mine: choose a highlighted display.",
  "dig.hintTurn": "Draw a card, or select a card to play.",
  "dig.hintTurnNoDraw": "The pile is empty: select a card to play.",
  "dig.fightTitle": "Fight over {mine}",
  "dig.fightAttacker": "Attacker: {name}",
  "dig.fightOwner": "owner: {name}",
  "dig.side.attack": "attack",
  "dig.side.defence": "defence",
  "dig.attackSum": "Attack {n}",
  "dig.defenceSum": "Defence {n}",
  "dig.tieDefends": "(a tie goes to the defence)",
  "dig.highest": "Highest: {n}, by {name}",
  "dig.chances": "Still to choose: {names}.",
  "dig.noChances": "Everyone has had their chance.",
  "dig.resolvesAt": "It is decided when play returns to {name}.",
  "dig.scores": "Scores",
  "dig.thisHand": "This hand",
  "dig.total": "Total",
  "dig.discard": "Discard pile ({n})",
  "dig.handScored": "Hand {n}: scoring",
  "dig.mine": "Mine",
  "dig.cards": "Cards",
  "dig.owner": "Owner",
  "dig.points": "Points",
  "dig.openNoPoints": "open: no points",
  "dig.noMinesHand": "No mine was opened this hand.",

  "colour.B": "blue",
  "colour.Y": "yellow",
  "colour.R": "red",
  "colour.G": "green",
  "colour.W": "white",
  "colour.K": "black",
  "dg.gameOver": "Game over: {names} win",
  "dg.gameOverOne": "Game over: {names} wins",
  "dg.yourDig": "Your dig! Roll, take, and stop before the sand runs out.",
  "dg.digging": "{name} is digging…",
  "dg.turnNo": "Turn {n}",
  "dg.rollNo": "Rolls this turn: {n}",
  "dg.notRolled": "not rolled yet",
  "dg.once": "shows once",
  "dg.stealMark": "steal",
  "dg.uniqueLine": "Showing once: {colours}.",
  "dg.blackLine": "Black shows once: gems may be stolen instead.",
  "dg.nothingOnce": "No colour shows once: roll again or stop.",
  "dg.noDice": "The dice wait for the digger's first roll.",
  "dg.dice": "The five dice",
  "dg.none": "none",
  "dg.nothing": "nothing",
  "dg.watchDig": "{name} digs; you see the hourglass, they do not.",
  "dg.spectateDig": "{name} digs.",
  "dg.spectatorGlass": "Spectators do not see the hourglass: only the seated players who are not digging do.",
  "dg.roll": "Roll",
  "dg.rollAgain": "Roll again",
  "dg.stop": "Stop",
  "dg.take": "Take {colour}",
  "dg.noneLeft": "No {colour} gem left to take",
  "dg.sandOut": "The sand ran out!",
  "dg.steal": "Steal {colour} from {name}",
  "dg.hintStart": "Roll the five dice: the hourglass starts with your first roll.",
  "dg.stackHint": "Stacking the haul at “stop” takes {n} s per token: stop before the last moment.",
  "dg.hintDig": "Take a token per colour showing once, roll again, or stop to bank your haul.",
  "dg.centre": "The supply",
  "dg.box": "Blue tokens used (out of play): {n}",
  "dg.haul": "Haul at risk",
  "dg.haulEmpty": "Nothing taken this turn.",
  "dg.atRisk": "Lost back to the supply if the hourglass runs out before “stop”.",
  "dg.digger": "digging",
  "dg.whiteCard": "white",
  "dg.pts": "{n} pts",
  "dg.scores": "Scores",
  "dg.endRule": "The game ends when the last blue token has left the supply.",
  "dg.hiddenGlass": "The hourglass is hidden from the digger. Stop in time!",
  "dg.secondsLeft": "{n} s left",
  "dg.glassWaiting": "Turned at the first roll",

  "ev.deal": "Hand {n}: {dealer} deals; {first} plays first.",
  "ev.dealCards": "You hold {cards}.",
  "ev.draw": "{who} draws a card; {pile} left in the pile.",
  "ev.drawCard": "{who} draws a card ({card}); {pile} left in the pile.",
  "ev.pass": "{who} passes a card to {to}.",
  "ev.passCard": "{who} passes a card ({card}) to {to}.",
  "ev.openOwn": "{who} opens a {card} as {mine} in their own display.",
  "ev.openOther": "{who} opens a {card} as {mine} in {owner}'s display.",
  "ev.chest": "{who} lays a {card} on {mine}.",
  "ev.close": "{who} closes {mine} for {owner}: {n} points.",
  "ev.closeOwn": "{who} closes {mine}: {n} points.",
  "ev.fightStart": "{who} attacks {mine} of {owner} with {card}!",
  "ev.fightJoin": "{who} joins the fight over {mine} for the {side} with {card}.",
  "ev.scoreSums": "{a} against {d}",
  "ev.scoreHighest": "highest {card} by {name}",
  "ev.attackWins": "The attack on {mine} wins ({score}): it goes to {owner}.",
  "ev.defenceHolds": "The defence of {mine} holds ({score}).",
  "ev.fightEnded": "Closing {mine} ends its fight: {cards} discarded.",
  "ev.fightLapsed": "The hand ends before the fight over {mine} is decided: it lapses.",
  "ev.skip": "{who} cannot act and skips.",
  "ev.handScored": "Hand {n} scored: {points}.",
  "ev.gameOver": "Game over: {names} win.",
  "ev.gameOverOne": "Game over: {names} wins.",
  "ev.throwFirst": "{who} rolls: the hourglass is turned.",
  "ev.roll": "{who}, roll {n}: {faces}; once: {unique}.",
  "ev.rollBlack": "Black once: stealing is open.",
  "ev.take": "{who} takes a {colour} token.",
  "ev.steal": "{who} steals a {colour} gem from {from}.",
  "ev.stop": "{who} stops and banks {tokens}: {n} points.",
  "ev.timeout": "The sand ran out on {who}: {tokens} back to the supply.",
  "ev.lateStop": "{who} called stop too late: {tokens} back to the supply.",
  "ev.knock": "{who} knocked a pile over: {tokens} back to the supply.",
  "ev.turnStart": "{who} digs.",
  "ev.diggerOver": "Game over: {names} win ({scores}).",
  "ev.diggerOverOne": "Game over: {names} wins ({scores}).",

  "opt.digging.target_exceeded": "a side must pass the target, not just reach it",
  "opt.digging.full_deck": "2 and 3 players use all 60 cards",
  "opt.digging.no_chests_during_fight": "no chests on a mine under attack",
  "opt.digging.close_needs_chest": "a mine must hold a chest to be closed",
  "opt.digger.time_limit": "seconds in the hourglass",
  "opt.digger.knock_probability": "chance that a steal knocks a pile over",
  "opt.digger.stack_seconds": "seconds to stack each token after “stop” (0: off); tokens stacked before the sand runs out are kept",
};

const fr = {
  "app.tagline": "Les jeux de la ruée vers l'or à une même table : Digging de Knizia et Digger de Fraga, entre amis ou contre des robots.",
  "lang.label": "Langue",
  "nav.lobby": "Accueil",
  "game.digging": "Digging",
  "game.digger": "Digger",
  "status.waiting": "en attente de joueurs",
  "status.expired": "expirée : personne n’est venu à temps",
  "status.playing": "en cours",
  "status.finished": "terminée",
  "common.you": "vous",
  "common.bot": "robot",
  "common.and": "et",
  "common.cancel": "Annuler",
  "common.close": "Fermer",
  "common.continue": "Continuer",

  "conn.connecting": "connexion…",
  "conn.online": "en ligne",
  "conn.offline": "hors ligne : nouvel essai dans {n} s",
  "conn.gone": "table introuvable",
  "conn.notSent": "Pas de connexion : le coup n'a pas été envoyé. Reconnexion…",

  "err.stale": "La partie avait avancé : mise à jour.",
  "err.turn": "Ce n'est pas votre tour.",
  "err.end": "La partie est terminée.",
  "err.not_started": "La partie commence quand toutes les places humaines sont prises.",
  "err.auth": "La clé de ce navigateur pour cette place n'est pas valable : vous êtes spectateur.",
  "err.spectator": "Un spectateur ne peut pas jouer.",
  "err.seat_taken": "Cette place est déjà prise.",
  "err.no_such_table": "Cette table n'existe pas.",
  "err.no_such_seat": "Cette table n'a pas cette place.",
  "err.server": "Le serveur n'a pas pu enregistrer le coup ; rien n'a changé. Réessayez.",
  "err.network": "Le serveur est injoignable.",
  "err.bad_config": "Le serveur refuse ces réglages : {message}",
  "err.bad_request": "Le serveur refuse la demande : {message}",
  "err.illegal": "Interdit : {message}",
  "botDesc.random": "joue au hasard un coup permis",
  "botDesc.heuristic": "suit des règles écrites à la main, comme un joueur sensé",
  "botDesc.ismcts": "explore les cartes cachées possibles (recherche arborescente Monte-Carlo)",
  "botDesc.search": "pèse chaque lancer et le moment de s'arrêter face au sablier",
  "botDesc.net": "joue avec son seul réseau entraîné",
  "why.game_over": "la partie est terminée",
  "why.not_dealt": "il faut d'abord distribuer les cartes",
  "why.skip_when_stuck": "on ne passe son tour que si rien d'autre n'est possible",
  "why.pile_empty": "la pioche est vide : on ne peut plus piocher",
  "why.not_in_hand": "vous n'avez pas de {card} en main",
  "why.pass_partnership": "on ne passe une carte qu'en jeu par équipes",
  "why.no_seat": "il n'y a pas de place {seat} à cette table",
  "why.no_mine": "il n'y a pas de mine {mine} : elle n'a pas été ouverte",
  "why.closed": "{mine} est fermée ; on n'y pose plus rien",
  "why.chest_metal": "un coffre en {chest} ne va pas sur une mine {metalOf}",
  "why.under_attack": "{mine} est attaquée (option : pas de coffre pendant un combat)",
  "why.close_needs_chest": "{mine} n'a aucun coffre (option : fermer demande un coffre)",
  "why.one_fight": "un seul combat à la fois, et il porte sur {mine}",
  "why.attacker_once": "le premier attaquant ne pose pas de second bandit",
  "why.joined_once": "vous avez déjà eu votre chance de rejoindre ce combat",
  "why.fight_opponent": "on n'attaque que la mine d'un adversaire",
  "why.fight_needs_chest": "on n'attaque qu'une mine qui porte au moins un coffre",
  "why.no_hourglass": "le sablier part du premier lancer du tour",
  "why.rolling": "les dés roulent : leur résultat d'abord",
  "why.knock_first": "il faut d'abord savoir si le vol a renversé une pile",
  "why.roll_first": "un tour commence par un lancer des cinq dés",
  "why.steal_own": "on vole dans la caisse d'un adversaire, pas dans la sienne",
  "why.not_once": "le {colour} ne sort pas sur un seul dé",
  "why.die_used": "le dé {colour} a déjà donné son jeton pour ce lancer",
  "why.none_left": "il ne reste aucun jeton {colour} au centre",
  "why.steal_needs_black": "voler demande le noir sur un seul dé",
  "why.crate_empty": "cette caisse n'a aucun jeton {colour}",
  "metalWord.G": "or",
  "metalWord.S": "argent",
  "metalWord.C": "cuivre",
  "metalOf.G": "d'or",
  "metalOf.S": "d'argent",
  "metalOf.C": "de cuivre",
  "err.other": "Erreur : {message}",

  "lobby.yourName": "Votre nom",
  "lobby.namePlaceholder": "ce que les autres voient",
  "lobby.quickDigging": "Jouer à Digging contre des robots",
  "lobby.quickDigger": "Jouer à Digger contre des robots",
  "lobby.quickHint": "Partie à quatre en équipes : vous et un robot partenaire contre deux robots.",
  "lobby.quickName": "{name} : {game} contre des robots",
  "lobby.quickNameAnon": "{game} contre des robots",
  "lobby.tables": "Tables",
  "lobby.refresh": "Actualiser",
  "lobby.filterStatus": "Quelles tables",
  "lobby.filterGame": "Quel jeu",
  "lobby.fLive": "ouvertes et en cours",
  "lobby.fOpen": "avec une place libre",
  "lobby.fPlaying": "en cours",
  "lobby.fFinished": "terminées",
  "lobby.fAllGames": "tous les jeux",
  "lobby.more": "Plus de tables",
  "lobby.noTables": "Aucune table : créez-en une ci-dessous, ou jouez contre des robots.",
  "lobby.createTitle": "Créer une table",
  "lobby.game": "Jeu",
  "lobby.players": "Joueurs",
  "lobby.partnership": "En équipes",
  "lobby.partnershipHint": "places 0 + 2 (équipe A) contre 1 + 3 (équipe B)",
  "lobby.partnershipShort": "en équipes",
  "lobby.crates": "Cartes caisse",
  "lobby.cratesWhite": "face blanche : mêmes valeurs pour tous",
  "lobby.cratesBlack": "face noire : une carte différente par joueur",
  "lobby.options": "Variantes de règles",
  "lobby.seats": "Places",
  "lobby.seatKind": "Qui joue la place {n}",
  "lobby.human": "Humain",
  "lobby.botKind": "Robot : {bot}",
  "lobby.iSitHere": "Je m'assois ici",
  "lobby.justWatch": "Je regarde seulement (je partagerai le lien)",
  "lobby.allBots": "Que des robots : vous les regarderez jouer.",
  "lobby.tableName": "Nom de la table",
  "lobby.moveSeconds": "Secondes par coup",
  "lobby.noLimit": "sans limite",
  "lobby.moveSecondsHint": "Ensuite, un robot joue le coup.",
  "lobby.create": "Créer la table",
  "lobby.noGames": "Le serveur ne propose aucun jeu.",
  "lobby.join": "Prendre la place {n}",
  "lobby.watch": "Regarder",
  "lobby.open": "Ouvrir la table",
  "lobby.resume": "Revenir à la place {n}",
  "lobby.openSeatN": "place {n} libre",
  "rules.heading": "Les règles en bref",
  "rules.title": "{game} : les règles en bref",

  "share.title": "Partager cette table",
  "share.copy": "Copier",
  "share.copied": "Lien copié.",
  "share.copyFailed": "Copiez-le à la main : le navigateur ne l'a pas permis.",
  "share.created": "La table « {name} » est prête.",
  "share.invite": "Envoyez ce lien : un ami l'ouvre et prend une place libre, les autres regardent.",
  "share.watchLink": "Lien de la table",
  "share.watchHelp": "Avec ce lien, on peut regarder, ou prendre une place libre tant que la table attend des joueurs.",
  "share.seatLink": "Votre place, sur un autre appareil",
  "share.seatHelp": "Privé : qui ouvre ce lien joue à votre place. Gardez-le pour vous.",

  "table.rules": "Règles",
  "table.share": "Partager",
  "table.log": "Journal de la partie",
  "table.seatN": "Place {n}",
  "table.waitingPlayers": "En attente de joueurs",
  "table.waitingFor": "Encore {n} joueur(s) attendu(s)",
  "table.takeSeat": "Prendre la place {n}",
  "table.openSeat": "libre",
  "table.watching": "Vous regardez cette table.",
  "table.playSeat": "Jouer ma place {n}",
  "table.botStandsIn": "Un robot a joué pour vous pendant votre absence.",
  "table.botTimeout": "Temps écoulé : un robot joue ce coup pour vous, puis la place vous revient.",
  "table.resume": "Reprendre ma place",
  "table.yourTurn": "À vous de jouer",
  "table.toMove": "{name} joue…",
  "table.sending": "Envoi…",
  "table.standin": "remplacé par un robot",
  "table.away": "absent",
  "table.record": "Feuille de partie",
  "table.backLobby": "Retour à l'accueil",
  "table.noToken": "Ce navigateur n'a pas de clé pour la place {n} : vous regardez. Rouvrez votre lien de place pour jouer.",
  "table.notFound": "Cette table n'existe pas (ou plus).",
  "table.noTable": "Aucune table indiquée.",
  "table.moveClock": "{n} s pour jouer",

  "keys.title": "Clavier",
  "keys.draw": "piocher une carte",
  "keys.pass": "passer la carte choisie à votre partenaire",
  "keys.cancel": "annuler le choix",
  "keys.roll": "lancer les dés",
  "keys.stop": "s'arrêter et mettre le butin à l'abri",

  "metal.G": "Or",
  "metal.S": "Argent",
  "metal.C": "Cuivre",
  "card.mine.G": "mine d'or",
  "card.mine.S": "mine d'argent",
  "card.mine.C": "mine de cuivre",
  "card.chest.G": "coffre d'or",
  "card.chest.S": "coffre d'argent",
  "card.chest.C": "coffre de cuivre",
  "card.double.G": "double coffre d'or",
  "card.double.S": "double coffre d'argent",
  "card.double.C": "double coffre de cuivre",
  "card.close": "carte « mine fermée »",
  "card.closeShort": "Fermée",
  "card.bandit": "bandit {value}",

  "dig.dealing": "Distribution…",
  "dig.gameOver": "Partie terminée : victoire de {winners}",
  "dig.gameOverOne": "Partie terminée : victoire de {winners}",
  "dig.pile": "Pioche",
  "dig.pileCount": "{n} dans la pioche",
  "dig.handNo": "Manche {n}",
  "dig.lastRound": "Dernier tour : encore {n} coup(s)",
  "dig.target": "Objectif {n}",
  "dig.targetLong": "La partie s'arrête après une manche où un camp atteint {n}.",
  "dig.partner": "partenaire",
  "dig.teamA": "Équipe A",
  "dig.teamB": "Équipe B",
  "dig.mayJoin": "peut entrer dans le combat",
  "dig.handSize": "Cartes en main",
  "dig.handPoints": "Points des mines fermées dans cette manche",
  "dig.pts": "{n} pts",
  "dig.noMines": "Pas encore de mine.",
  "dig.openMine": "Ouvrir la mine ici",
  "dig.openThere": "L'ouvrir devant {name}",
  "dig.partnerHolds": "Vous savez que votre partenaire a :",
  "dig.chestCount": "{n} coffre(s)",
  "dig.doubled": "doublée : son premier coffre est un double coffre",
  "dig.closed": "fermée",
  "dig.closedPts": "fermée, {n} points",
  "dig.openWorth": "ouverte, vaudra {n} une fois fermée",
  "dig.underAttack": "attaquée",
  "dig.yourHand": "Votre main",
  "dig.emptyHand": "Aucune carte en main.",
  "dig.draw": "Piocher",
  "dig.passPartner": "Passer au partenaire",
  "dig.skip": "Passer son tour (rien n'est jouable)",
  "dig.hintWait": "Attendez votre tour ; vous pouvez observer la table en attendant.",
  "dig.hintSkip": "Aucune carte de votre main n'est jouable : vous devez passer votre tour.",
  "dig.hintTarget": "Où poser le {card} ? Choisissez une mine ou un emplacement en surbrillance.",
  "dig.hintPassOnly": "Le {card} ne peut aller nulle part sur la table : passez-le à votre partenaire (P).",
  "dig.mineToDisplay": "Un {card} ouvre une nouvelle mine : choisissez un emplacement en surbrillance.",
  "dig.hintTurn": "Piochez, ou choisissez une carte à jouer.",
  "dig.hintTurnNoDraw": "La pioche est vide : choisissez une carte à jouer.",
  "dig.fightTitle": "Combat pour {mine}",
  "dig.fightAttacker": "Attaquant : {name}",
  "dig.fightOwner": "propriétaire : {name}",
  "dig.side.attack": "attaque",
  "dig.side.defence": "défense",
  "dig.attackSum": "Attaque {n}",
  "dig.defenceSum": "Défense {n}",
  "dig.tieDefends": "(en cas d'égalité, la défense l'emporte)",
  "dig.highest": "Le plus fort : {n}, de {name}",
  "dig.chances": "Doivent encore choisir : {names}.",
  "dig.noChances": "Chacun a eu sa chance.",
  "dig.resolvesAt": "Le combat est tranché quand le tour revient à {name}.",
  "dig.scores": "Scores",
  "dig.thisHand": "Cette manche",
  "dig.total": "Total",
  "dig.discard": "Défausse ({n})",
  "dig.handScored": "Manche {n} : décompte",
  "dig.mine": "Mine",
  "dig.cards": "Cartes",
  "dig.owner": "Propriétaire",
  "dig.points": "Points",
  "dig.openNoPoints": "ouverte : aucun point",
  "dig.noMinesHand": "Aucune mine n'a été ouverte dans cette manche.",

  "colour.B": "bleu",
  "colour.Y": "jaune",
  "colour.R": "rouge",
  "colour.G": "vert",
  "colour.W": "blanc",
  "colour.K": "noir",
  "dg.gameOver": "Partie terminée : victoire de {names}",
  "dg.gameOverOne": "Partie terminée : victoire de {names}",
  "dg.yourDig": "À vous de creuser ! Lancez, prenez, et arrêtez-vous avant la fin du sablier.",
  "dg.digging": "{name} creuse…",
  "dg.turnNo": "Tour {n}",
  "dg.rollNo": "Lancers ce tour : {n}",
  "dg.notRolled": "pas encore lancé",
  "dg.once": "une seule fois",
  "dg.stealMark": "vol",
  "dg.uniqueLine": "Une seule fois : {colours}.",
  "dg.blackLine": "Le noir sort une seule fois : on peut voler des gemmes à la place.",
  "dg.nothingOnce": "Aucune couleur ne sort une seule fois : relancez ou arrêtez-vous.",
  "dg.noDice": "Les dés attendent le premier lancer du chercheur.",
  "dg.dice": "Les cinq dés",
  "dg.none": "aucune",
  "dg.nothing": "rien",
  "dg.watchDig": "{name} creuse ; vous voyez le sablier, pas lui.",
  "dg.spectateDig": "{name} creuse.",
  "dg.spectatorGlass": "Les spectateurs ne voient pas le sablier : seuls les joueurs assis qui ne creusent pas le voient.",
  "dg.roll": "Lancer",
  "dg.rollAgain": "Relancer",
  "dg.stop": "Stop",
  "dg.take": "Prendre {colour}",
  "dg.noneLeft": "Plus de gemme {colour} à prendre",
  "dg.sandOut": "Le sablier est vide !",
  "dg.steal": "Voler {colour} à {name}",
  "dg.hintStart": "Lancez les cinq dés : le sablier démarre au premier lancer.",
  "dg.stackHint": "Empiler le butin au « stop » prend {n} s par jeton : n'attendez pas le dernier moment.",
  "dg.hintDig": "Prenez un jeton par couleur sortie une seule fois, relancez, ou arrêtez-vous pour mettre votre butin à l'abri.",
  "dg.centre": "La réserve",
  "dg.box": "Jetons bleus utilisés (hors jeu) : {n}",
  "dg.haul": "Butin en jeu",
  "dg.haulEmpty": "Rien de pris ce tour.",
  "dg.atRisk": "Retourne à la réserve si le sablier s'écoule avant « stop ».",
  "dg.digger": "creuse",
  "dg.whiteCard": "blanche",
  "dg.pts": "{n} pts",
  "dg.scores": "Scores",
  "dg.endRule": "La partie s'arrête quand le dernier jeton bleu a quitté la réserve.",
  "dg.hiddenGlass": "Le sablier est caché au chercheur. Arrêtez-vous à temps !",
  "dg.secondsLeft": "encore {n} s",
  "dg.glassWaiting": "Retourné au premier lancer",

  "ev.deal": "Manche {n} : {dealer} distribue ; {first} commence.",
  "ev.dealCards": "Vous avez {cards}.",
  "ev.draw": "{who} pioche une carte ; {pile} dans la pioche.",
  "ev.drawCard": "{who} pioche une carte ({card}) ; {pile} dans la pioche.",
  "ev.pass": "{who} passe une carte à {to}.",
  "ev.passCard": "{who} passe une carte ({card}) à {to}.",
  "ev.openOwn": "{who} ouvre une {card}, {mine}, devant lui.",
  "ev.openOther": "{who} ouvre une {card}, {mine}, devant {owner}.",
  "ev.chest": "{who} pose un {card} sur {mine}.",
  "ev.close": "{who} ferme {mine} pour {owner} : {n} points.",
  "ev.closeOwn": "{who} ferme {mine} : {n} points.",
  "ev.fightStart": "{who} attaque {mine} de {owner} avec le {card} !",
  "ev.fightJoin": "{who} entre dans le combat pour {mine} en {side} avec le {card}.",
  "ev.scoreSums": "{a} contre {d}",
  "ev.scoreHighest": "le plus fort, {card}, de {name}",
  "ev.attackWins": "L'attaque sur {mine} l'emporte ({score}) : elle passe à {owner}.",
  "ev.defenceHolds": "La défense de {mine} tient ({score}).",
  "ev.fightEnded": "La fermeture de {mine} met fin au combat : {cards} défaussés.",
  "ev.fightLapsed": "La manche finit avant que le combat pour {mine} soit tranché : il est annulé.",
  "ev.skip": "{who} ne peut rien jouer et passe son tour.",
  "ev.handScored": "Décompte de la manche {n} : {points}.",
  "ev.gameOver": "Partie terminée : victoire de {names}.",
  "ev.gameOverOne": "Partie terminée : victoire de {names}.",
  "ev.throwFirst": "{who} lance : le sablier est retourné.",
  "ev.roll": "{who}, lancer {n} : {faces} ; une seule fois : {unique}.",
  "ev.rollBlack": "Noir une seule fois : le vol est permis.",
  "ev.take": "{who} prend un jeton {colour}.",
  "ev.steal": "{who} vole une gemme {colour} à {from}.",
  "ev.stop": "{who} s'arrête et met à l'abri {tokens} : {n} points.",
  "ev.timeout": "Le sablier s'est écoulé pour {who} : {tokens} retournent à la réserve.",
  "ev.lateStop": "{who} a dit stop trop tard : {tokens} retournent à la réserve.",
  "ev.knock": "{who} a renversé une pile : {tokens} retournent à la réserve.",
  "ev.turnStart": "{who} creuse.",
  "ev.diggerOver": "Partie terminée : victoire de {names} ({scores}).",
  "ev.diggerOverOne": "Partie terminée : victoire de {names} ({scores}).",

  "opt.digging.target_exceeded": "un camp doit dépasser l'objectif, pas seulement l'atteindre",
  "opt.digging.full_deck": "à 2 et 3 joueurs, on joue avec les 60 cartes",
  "opt.digging.no_chests_during_fight": "pas de coffre sur une mine attaquée",
  "opt.digging.close_needs_chest": "une mine doit avoir un coffre pour être fermée",
  "opt.digger.time_limit": "secondes dans le sablier",
  "opt.digger.knock_probability": "probabilité qu'un vol renverse une pile",
  "opt.digger.stack_seconds": "secondes pour empiler chaque jeton après « stop » (0 : non) ; les jetons empilés avant la fin du sablier sont gardés",
};

const de = {
  "app.tagline": "Goldrausch-Spiele an einem Tisch: Knizias Digging und Fragas Digger, mit Freunden oder Bots.",
  "lang.label": "Sprache",
  "nav.lobby": "Lobby",
  "game.digging": "Digging",
  "game.digger": "Digger",
  "status.waiting": "wartet auf Spieler",
  "status.expired": "abgelaufen: niemand kam rechtzeitig",
  "status.playing": "läuft",
  "status.finished": "beendet",
  "common.you": "du",
  "common.bot": "Bot",
  "common.and": "und",
  "common.cancel": "Abbrechen",
  "common.close": "Schließen",
  "common.continue": "Weiter",

  "conn.connecting": "verbinde…",
  "conn.online": "online",
  "conn.offline": "offline: neuer Versuch in {n} s",
  "conn.gone": "Tisch nicht gefunden",
  "conn.notSent": "Keine Verbindung: der Zug wurde nicht gesendet. Verbinde neu…",

  "err.stale": "Das Spiel war schon weiter: wird nachgeholt.",
  "err.turn": "Du bist nicht am Zug.",
  "err.end": "Das Spiel ist vorbei.",
  "err.not_started": "Das Spiel beginnt, wenn alle menschlichen Plätze besetzt sind.",
  "err.auth": "Der Schlüssel dieses Browsers für diesen Platz gilt nicht: du schaust zu.",
  "err.spectator": "Zuschauer können nicht ziehen.",
  "err.seat_taken": "Dieser Platz ist schon besetzt.",
  "err.no_such_table": "Diesen Tisch gibt es nicht.",
  "err.no_such_seat": "Diesen Platz hat der Tisch nicht.",
  "err.server": "Der Server konnte den Zug nicht speichern; nichts hat sich geändert. Bitte noch einmal.",
  "err.network": "Der Server ist nicht erreichbar.",
  "err.bad_config": "Der Server lehnt diese Einstellungen ab: {message}",
  "err.bad_request": "Der Server lehnt die Anfrage ab: {message}",
  "err.illegal": "Nicht erlaubt: {message}",
  "botDesc.random": "spielt einen erlaubten Zug nach Zufall",
  "botDesc.heuristic": "folgt handgeschriebenen Regeln, wie ein vernünftiger Mensch",
  "botDesc.ismcts": "durchsucht die möglichen verdeckten Karten (Monte-Carlo-Baumsuche)",
  "botDesc.search": "wägt jeden Wurf und den Zeitpunkt zum Aufhören gegen die Sanduhr ab",
  "botDesc.net": "spielt allein mit seinem trainierten Netz",
  "why.game_over": "das Spiel ist vorbei",
  "why.not_dealt": "zuerst müssen die Karten verteilt werden",
  "why.skip_when_stuck": "aussetzen darf man nur, wenn nichts anderes geht",
  "why.pile_empty": "der Stapel ist leer: es kann nicht gezogen werden",
  "why.not_in_hand": "du hast keine Karte {card} auf der Hand",
  "why.pass_partnership": "Karten weitergeben gibt es nur im Partnerspiel",
  "why.no_seat": "an diesem Tisch gibt es keinen Platz {seat}",
  "why.no_mine": "es gibt keine Mine {mine}: sie wurde nicht eröffnet",
  "why.closed": "{mine} ist geschlossen; darauf kommt nichts mehr",
  "why.chest_metal": "eine {chest}truhe passt nicht auf eine {metalOf}mine",
  "why.under_attack": "{mine} wird angegriffen (Regeloption: keine Truhen im Kampf)",
  "why.close_needs_chest": "{mine} hat keine Truhe (Regeloption: Schließen braucht eine Truhe)",
  "why.one_fight": "nur ein Kampf zur Zeit, und er geht um {mine}",
  "why.attacker_once": "der erste Angreifer legt keinen zweiten Banditen",
  "why.joined_once": "du hattest deine eine Gelegenheit, diesem Kampf beizutreten",
  "why.fight_opponent": "ein Kampf beginnt nur an der Mine eines Gegners",
  "why.fight_needs_chest": "ein Kampf braucht eine Mine mit mindestens einer Truhe",
  "why.no_hourglass": "die Sanduhr läuft ab dem ersten Wurf des Zuges",
  "why.rolling": "die Würfel rollen: zuerst ihr Ergebnis",
  "why.knock_first": "zuerst wird entschieden, ob der Diebstahl einen Stapel umgeworfen hat",
  "why.roll_first": "ein Zug beginnt mit einem Wurf aller fünf Würfel",
  "why.steal_own": "man stiehlt aus der Kiste eines Gegners, nicht aus der eigenen",
  "why.not_once": "{colour} zeigt nicht genau ein Würfel",
  "why.die_used": "der Würfel {colour} hat in diesem Wurf schon seinen Stein gegeben",
  "why.none_left": "in der Mitte ist kein Stein {colour} mehr",
  "why.steal_needs_black": "stehlen braucht Schwarz auf genau einem Würfel",
  "why.crate_empty": "diese Kiste hat keinen Stein {colour}",
  "metalWord.G": "Gold",
  "metalWord.S": "Silber",
  "metalWord.C": "Kupfer",
  "metalOf.G": "Gold",
  "metalOf.S": "Silber",
  "metalOf.C": "Kupfer",
  "err.other": "Fehler: {message}",

  "lobby.yourName": "Dein Name",
  "lobby.namePlaceholder": "so sehen dich die anderen",
  "lobby.quickDigging": "Digging gegen Bots spielen",
  "lobby.quickDigger": "Digger gegen Bots spielen",
  "lobby.quickHint": "Partnerspiel zu viert: du und ein Bot als Partner gegen zwei Bots.",
  "lobby.quickName": "{name}: {game} gegen Bots",
  "lobby.quickNameAnon": "{game} gegen Bots",
  "lobby.tables": "Tische",
  "lobby.refresh": "Aktualisieren",
  "lobby.filterStatus": "Welche Tische",
  "lobby.filterGame": "Welches Spiel",
  "lobby.fLive": "offen und im Spiel",
  "lobby.fOpen": "mit freiem Platz",
  "lobby.fPlaying": "im Spiel",
  "lobby.fFinished": "beendet",
  "lobby.fAllGames": "alle Spiele",
  "lobby.more": "Weitere Tische",
  "lobby.noTables": "Noch kein Tisch: leg unten einen an oder spiel gegen Bots.",
  "lobby.createTitle": "Tisch anlegen",
  "lobby.game": "Spiel",
  "lobby.players": "Spieler",
  "lobby.partnership": "Partnerspiel",
  "lobby.partnershipHint": "Plätze 0 + 2 (Team A) gegen 1 + 3 (Team B)",
  "lobby.partnershipShort": "Partnerspiel",
  "lobby.crates": "Kistenkarten",
  "lobby.cratesWhite": "weiße Seite: gleiche Werte für alle",
  "lobby.cratesBlack": "schwarze Seite: jede Karte anders",
  "lobby.options": "Regelvarianten",
  "lobby.seats": "Plätze",
  "lobby.seatKind": "Wer spielt Platz {n}",
  "lobby.human": "Mensch",
  "lobby.botKind": "Bot: {bot}",
  "lobby.iSitHere": "Ich sitze hier",
  "lobby.justWatch": "Ich schaue nur zu (und teile den Link)",
  "lobby.allBots": "Nur Bots: du schaust ihnen zu.",
  "lobby.tableName": "Name des Tisches",
  "lobby.moveSeconds": "Sekunden pro Zug",
  "lobby.noLimit": "keine Grenze",
  "lobby.moveSecondsHint": "Danach zieht ein Bot.",
  "lobby.create": "Tisch anlegen",
  "lobby.noGames": "Der Server bietet kein Spiel an.",
  "lobby.join": "Platz {n} nehmen",
  "lobby.watch": "Zuschauen",
  "lobby.open": "Tisch öffnen",
  "lobby.resume": "Zurück zu Platz {n}",
  "lobby.openSeatN": "Platz {n} frei",
  "rules.heading": "Die Regeln in Kürze",
  "rules.title": "{game}: die Regeln in Kürze",

  "share.title": "Diesen Tisch teilen",
  "share.copy": "Kopieren",
  "share.copied": "Link kopiert.",
  "share.copyFailed": "Bitte von Hand kopieren: der Browser hat es nicht erlaubt.",
  "share.created": "Tisch „{name}“ ist bereit.",
  "share.invite": "Schick diesen Link: wer ihn öffnet, nimmt einen freien Platz oder schaut zu.",
  "share.watchLink": "Link zum Tisch",
  "share.watchHelp": "Mit diesem Link kann man zuschauen oder einen freien Platz nehmen, solange der Tisch auf Spieler wartet.",
  "share.seatLink": "Dein Platz, auf einem anderen Gerät",
  "share.seatHelp": "Privat: wer diesen Link öffnet, spielt deinen Platz. Behalte ihn für dich.",

  "table.rules": "Regeln",
  "table.share": "Teilen",
  "table.log": "Spielverlauf",
  "table.seatN": "Platz {n}",
  "table.waitingPlayers": "Warten auf Spieler",
  "table.waitingFor": "Es fehlen noch {n} Spieler",
  "table.takeSeat": "Platz {n} nehmen",
  "table.openSeat": "frei",
  "table.watching": "Du schaust an diesem Tisch zu.",
  "table.playSeat": "Meinen Platz {n} spielen",
  "table.botStandsIn": "Ein Bot hat für dich gespielt, während du weg warst.",
  "table.botTimeout": "Zeit abgelaufen: Ein Bot macht diesen einen Zug für dich, dann ist der Platz wieder deiner.",
  "table.resume": "Platz zurücknehmen",
  "table.yourTurn": "Du bist am Zug",
  "table.toMove": "{name} ist am Zug…",
  "table.sending": "Sende…",
  "table.standin": "Bot springt ein",
  "table.away": "abwesend",
  "table.record": "Partieprotokoll",
  "table.backLobby": "Zurück zur Lobby",
  "table.noToken": "Dieser Browser hat keinen Schlüssel für Platz {n}: du schaust zu. Öffne deinen Platz-Link erneut, um zu spielen.",
  "table.notFound": "Diesen Tisch gibt es nicht (mehr).",
  "table.noTable": "Kein Tisch angegeben.",
  "table.moveClock": "{n} s für den Zug",

  "keys.title": "Tastatur",
  "keys.draw": "eine Karte ziehen",
  "keys.pass": "die gewählte Karte dem Partner geben",
  "keys.cancel": "Auswahl aufheben",
  "keys.roll": "würfeln",
  "keys.stop": "aufhören und die Beute sichern",

  "metal.G": "Gold",
  "metal.S": "Silber",
  "metal.C": "Kupfer",
  "card.mine.G": "Goldmine",
  "card.mine.S": "Silbermine",
  "card.mine.C": "Kupfermine",
  "card.chest.G": "Goldtruhe",
  "card.chest.S": "Silbertruhe",
  "card.chest.C": "Kupfertruhe",
  "card.double.G": "doppelte Goldtruhe",
  "card.double.S": "doppelte Silbertruhe",
  "card.double.C": "doppelte Kupfertruhe",
  "card.close": "Karte „Mine geschlossen“",
  "card.closeShort": "Zu",
  "card.bandit": "Bandit {value}",

  "dig.dealing": "Es wird gegeben…",
  "dig.gameOver": "Spielende: {winners} gewinnen",
  "dig.gameOverOne": "Spielende: {winners} gewinnt",
  "dig.pile": "Nachziehstapel",
  "dig.pileCount": "{n} im Stapel",
  "dig.handNo": "Runde {n}",
  "dig.lastRound": "Letzte Runde: noch {n} Zug/Züge",
  "dig.target": "Ziel {n}",
  "dig.targetLong": "Das Spiel endet nach einer Runde, in der eine Seite {n} erreicht.",
  "dig.partner": "Partner",
  "dig.teamA": "Team A",
  "dig.teamB": "Team B",
  "dig.mayJoin": "darf in den Kampf eingreifen",
  "dig.handSize": "Karten auf der Hand",
  "dig.handPoints": "Punkte aus geschlossenen Minen in dieser Runde",
  "dig.pts": "{n} P.",
  "dig.noMines": "Noch keine Mine.",
  "dig.openMine": "Mine hier eröffnen",
  "dig.openThere": "Bei {name} eröffnen",
  "dig.partnerHolds": "Du weißt, dein Partner hat:",
  "dig.chestCount": "{n} Truhe(n)",
  "dig.doubled": "verdoppelt: die erste Truhe ist eine Doppeltruhe",
  "dig.closed": "geschlossen",
  "dig.closedPts": "geschlossen, {n} Punkte",
  "dig.openWorth": "offen, geschlossen {n} wert",
  "dig.underAttack": "wird angegriffen",
  "dig.yourHand": "Deine Hand",
  "dig.emptyHand": "Keine Karte auf der Hand.",
  "dig.draw": "Ziehen",
  "dig.passPartner": "Dem Partner geben",
  "dig.skip": "Aussetzen (nichts spielbar)",
  "dig.hintWait": "Warte auf deinen Zug; schau dir solange den Tisch an.",
  "dig.hintSkip": "Keine Karte deiner Hand ist spielbar: du musst aussetzen.",
  "dig.hintTarget": "Wohin mit der Karte {card}? Wähle eine hervorgehobene Mine oder Auslage.",
  "dig.hintPassOnly": "Die Karte {card} passt nirgends auf den Tisch: gib sie deinem Partner (P).",
  "dig.mineToDisplay": "Die Karte {card} eröffnet eine neue Mine: wähle eine hervorgehobene Auslage.",
  "dig.hintTurn": "Zieh eine Karte oder wähle eine Karte zum Ausspielen.",
  "dig.hintTurnNoDraw": "Der Stapel ist leer: wähle eine Karte zum Ausspielen.",
  "dig.fightTitle": "Kampf um {mine}",
  "dig.fightAttacker": "Angreifer: {name}",
  "dig.fightOwner": "Besitzer: {name}",
  "dig.side.attack": "Angriff",
  "dig.side.defence": "Verteidigung",
  "dig.attackSum": "Angriff {n}",
  "dig.defenceSum": "Verteidigung {n}",
  "dig.tieDefends": "(bei Gleichstand gewinnt die Verteidigung)",
  "dig.highest": "Höchster: {n}, von {name}",
  "dig.chances": "Noch zu entscheiden: {names}.",
  "dig.noChances": "Alle hatten ihre Chance.",
  "dig.resolvesAt": "Entschieden wird, wenn {name} wieder am Zug ist.",
  "dig.scores": "Punkte",
  "dig.thisHand": "Diese Runde",
  "dig.total": "Gesamt",
  "dig.discard": "Ablage ({n})",
  "dig.handScored": "Runde {n}: Wertung",
  "dig.mine": "Mine",
  "dig.cards": "Karten",
  "dig.owner": "Besitzer",
  "dig.points": "Punkte",
  "dig.openNoPoints": "offen: keine Punkte",
  "dig.noMinesHand": "In dieser Runde wurde keine Mine eröffnet.",

  "colour.B": "blau",
  "colour.Y": "gelb",
  "colour.R": "rot",
  "colour.G": "grün",
  "colour.W": "weiß",
  "colour.K": "schwarz",
  "dg.gameOver": "Spielende: {names} gewinnen",
  "dg.gameOverOne": "Spielende: {names} gewinnt",
  "dg.yourDig": "Du gräbst! Würfeln, nehmen, und aufhören, bevor die Sanduhr abläuft.",
  "dg.digging": "{name} gräbt…",
  "dg.turnNo": "Zug {n}",
  "dg.rollNo": "Würfe in diesem Zug: {n}",
  "dg.notRolled": "noch nicht gewürfelt",
  "dg.once": "genau einmal",
  "dg.stealMark": "klauen",
  "dg.uniqueLine": "Genau einmal: {colours}.",
  "dg.blackLine": "Schwarz genau einmal: stattdessen darf man Edelsteine klauen.",
  "dg.nothingOnce": "Keine Farbe genau einmal: noch einmal würfeln oder aufhören.",
  "dg.noDice": "Die Würfel warten auf den ersten Wurf.",
  "dg.dice": "Die fünf Würfel",
  "dg.none": "keine",
  "dg.nothing": "nichts",
  "dg.watchDig": "{name} gräbt; du siehst die Sanduhr, {name} nicht.",
  "dg.spectateDig": "{name} gräbt.",
  "dg.spectatorGlass": "Zuschauer sehen die Sanduhr nicht: nur die Spieler am Tisch, die gerade nicht graben.",
  "dg.roll": "Würfeln",
  "dg.rollAgain": "Noch einmal würfeln",
  "dg.stop": "Stopp",
  "dg.take": "{colour} nehmen",
  "dg.noneLeft": "Keine Edelsteine der Farbe {colour} mehr",
  "dg.sandOut": "Die Sanduhr ist abgelaufen!",
  "dg.steal": "{colour} von {name} klauen",
  "dg.hintStart": "Wirf die fünf Würfel: die Sanduhr läuft ab dem ersten Wurf.",
  "dg.stackHint": "Beim „Stopp“ dauert das Stapeln {n} s pro Plättchen: warte nicht bis zuletzt.",
  "dg.hintDig": "Nimm ein Plättchen je Farbe, die genau einmal zu sehen ist, würfle erneut oder sag Stopp, um die Beute zu sichern.",
  "dg.centre": "Der Vorrat",
  "dg.box": "Verbrauchte blaue Plättchen (aus dem Spiel): {n}",
  "dg.haul": "Beute in Gefahr",
  "dg.haulEmpty": "In diesem Zug noch nichts genommen.",
  "dg.atRisk": "Geht zurück in den Vorrat, wenn die Sanduhr vor „Stopp“ abläuft.",
  "dg.digger": "gräbt",
  "dg.whiteCard": "weiß",
  "dg.pts": "{n} P.",
  "dg.scores": "Punkte",
  "dg.endRule": "Das Spiel endet, wenn das letzte blaue Plättchen den Vorrat verlassen hat.",
  "dg.hiddenGlass": "Die Sanduhr ist vor dem Graben verborgen. Hör rechtzeitig auf!",
  "dg.secondsLeft": "noch {n} s",
  "dg.glassWaiting": "Wird beim ersten Wurf umgedreht",

  "ev.deal": "Runde {n}: {dealer} gibt; {first} beginnt.",
  "ev.dealCards": "Du hast {cards}.",
  "ev.draw": "{who} zieht eine Karte; {pile} im Stapel.",
  "ev.drawCard": "{who} zieht eine Karte ({card}); {pile} im Stapel.",
  "ev.pass": "{who} gibt {to} eine Karte.",
  "ev.passCard": "{who} gibt {to} eine Karte ({card}).",
  "ev.openOwn": "{who} eröffnet eine {card} als {mine} in der eigenen Auslage.",
  "ev.openOther": "{who} eröffnet eine {card} als {mine} in der Auslage von {owner}.",
  "ev.chest": "{who} legt eine {card} an {mine}.",
  "ev.close": "{who} schließt {mine} für {owner}: {n} Punkte.",
  "ev.closeOwn": "{who} schließt {mine}: {n} Punkte.",
  "ev.fightStart": "{who} greift {mine} von {owner} mit {card} an!",
  "ev.fightJoin": "{who} greift in den Kampf um {mine} ein ({side}) mit {card}.",
  "ev.scoreSums": "{a} gegen {d}",
  "ev.scoreHighest": "höchster {card} von {name}",
  "ev.attackWins": "Der Angriff auf {mine} gewinnt ({score}): sie geht an {owner}.",
  "ev.defenceHolds": "Die Verteidigung von {mine} hält ({score}).",
  "ev.fightEnded": "Das Schließen von {mine} beendet den Kampf: {cards} abgelegt.",
  "ev.fightLapsed": "Die Runde endet, bevor der Kampf um {mine} entschieden ist: er verfällt.",
  "ev.skip": "{who} kann nichts tun und setzt aus.",
  "ev.handScored": "Wertung der Runde {n}: {points}.",
  "ev.gameOver": "Spielende: {names} gewinnen.",
  "ev.gameOverOne": "Spielende: {names} gewinnt.",
  "ev.throwFirst": "{who} würfelt: die Sanduhr wird umgedreht.",
  "ev.roll": "{who}, Wurf {n}: {faces}; genau einmal: {unique}.",
  "ev.rollBlack": "Schwarz genau einmal: Klauen ist erlaubt.",
  "ev.take": "{who} nimmt ein {colour}es Plättchen.",
  "ev.steal": "{who} klaut {from} einen {colour}en Edelstein.",
  "ev.stop": "{who} hört auf und sichert {tokens}: {n} Punkte.",
  "ev.timeout": "Die Sanduhr ist für {who} abgelaufen: {tokens} zurück in den Vorrat.",
  "ev.lateStop": "{who} hat zu spät Stopp gesagt: {tokens} zurück in den Vorrat.",
  "ev.knock": "{who} hat einen Stapel umgestoßen: {tokens} zurück in den Vorrat.",
  "ev.turnStart": "{who} gräbt.",
  "ev.diggerOver": "Spielende: {names} gewinnen ({scores}).",
  "ev.diggerOverOne": "Spielende: {names} gewinnt ({scores}).",

  "opt.digging.target_exceeded": "eine Seite muss das Ziel überschreiten, nicht nur erreichen",
  "opt.digging.full_deck": "zu zweit und zu dritt mit allen 60 Karten",
  "opt.digging.no_chests_during_fight": "keine Truhen an eine angegriffene Mine",
  "opt.digging.close_needs_chest": "nur Minen mit einer Truhe dürfen geschlossen werden",
  "opt.digger.time_limit": "Sekunden in der Sanduhr",
  "opt.digger.knock_probability": "Wahrscheinlichkeit, dass ein Diebstahl einen Stapel umwirft",
  "opt.digger.stack_seconds": "Sekunden zum Stapeln je Plättchen nach „Stopp“ (0: aus); vor Ablauf der Sanduhr gestapelte Plättchen bleiben",
};

export const STRINGS = { en, fr, de };

// ---------------------------------------------------------------------------
// The rules in short (the full rules: docs/digging.md and docs/digger.md)
// ---------------------------------------------------------------------------
const RULES = {
  en: {
    digging: `
<p><strong>Digging</strong> (Reiner Knizia): open mines, fill them with chests, close them to score, and send bandits after other players' mines.</p>
<ul>
<li><strong>Cards</strong>: 9 mines (gold, silver, copper), 27 chests, 3 double chests, 9 closed-mine cards, bandits 1 to 12.</li>
<li><strong>Deal</strong>: six cards each; the rest is the pile. The player left of the dealer starts.</li>
<li><strong>Your turn is one action</strong>: draw a card, pass a card to your partner (partnership game), or play one card. You skip only when nothing is possible.</li>
<li><strong>Mine</strong>: opens a new mine of its metal in <em>any</em> player's display.</li>
<li><strong>Chest</strong>: onto an open mine of the same metal, in any display.</li>
<li><strong>Closed-mine card</strong>: closes any open mine; its points go to the owner of the display it is in.</li>
<li><strong>Bandits</strong>: lay one on an opponent's open mine holding a chest to start a fight. Every other player's next turn is their one chance to join with one bandit. When play returns to the attacker: in partnership the sums are compared (a tie defends); alone, the highest bandit wins the mine.</li>
<li><strong>End of a hand</strong>: once the last card is drawn, everyone plays one more turn.</li>
<li><strong>Scoring</strong>: only closed mines score: gold chest 3, silver 2, copper 1; a double chest counts twice. If a mine's first chest is a double chest, every chest in it counts twice.</li>
<li><strong>Winning</strong>: 60 points (partnership), 40/45/50 points with 2/3/4 players; the highest total wins.</li>
</ul>`,
    digger: `
<p><strong>Digger</strong> (Roberto Fraga): roll five dice, grab the gems that show once, and stop before the hourglass runs out.</p>
<ul>
<li><strong>On your turn</strong> roll all five dice. For each colour that shows on <em>exactly one</em> die, you may take one token of that colour from the supply.</li>
<li><strong>Black once</strong>: you may steal those gems (not blue) from other players' crates instead.</li>
<li><strong>Roll again</strong> as often as you dare. Everything taken this turn is your <strong>haul</strong>, still at risk.</li>
<li><strong>Stop</strong> to bank the haul: gems into your crate, blue (water) into the box.</li>
<li><strong>The hourglass</strong> (30 s) starts with your first roll and is hidden from you. If it runs out before you stop, the whole haul goes back to the supply.</li>
<li><strong>End</strong>: when no blue token is left in the supply. Each gem scores its value on your crate card; blue scores nothing. Highest score wins.</li>
</ul>`,
  },
  fr: {
    digging: `
<p><strong>Digging</strong> (Reiner Knizia) : ouvrez des mines, remplissez-les de coffres, fermez-les pour marquer, et lancez des bandits sur les mines des autres.</p>
<ul>
<li><strong>Cartes</strong> : 9 mines (or, argent, cuivre), 27 coffres, 3 doubles coffres, 9 cartes « mine fermée », bandits de 1 à 12.</li>
<li><strong>Distribution</strong> : six cartes chacun ; le reste forme la pioche. Le joueur à gauche du donneur commence.</li>
<li><strong>À votre tour, une seule action</strong> : piocher, passer une carte à votre partenaire (jeu en équipes) ou jouer une carte. On ne passe son tour que si rien n'est possible.</li>
<li><strong>Mine</strong> : ouvre une nouvelle mine de son métal devant <em>n'importe quel</em> joueur.</li>
<li><strong>Coffre</strong> : sur une mine ouverte du même métal, devant n'importe qui.</li>
<li><strong>Carte « mine fermée »</strong> : ferme une mine ouverte ; ses points vont au joueur devant qui elle se trouve.</li>
<li><strong>Bandits</strong> : posez-en un sur une mine adverse ouverte contenant un coffre pour lancer un combat. Le prochain tour de chaque autre joueur est sa seule chance d'y entrer avec un bandit. Quand le tour revient à l'attaquant : en équipes on compare les sommes (l'égalité profite à la défense) ; seul, le plus fort bandit gagne la mine.</li>
<li><strong>Fin de manche</strong> : après la dernière carte piochée, chacun joue encore un tour.</li>
<li><strong>Décompte</strong> : seules les mines fermées comptent : coffre d'or 3, d'argent 2, de cuivre 1 ; un double coffre compte double. Si le premier coffre d'une mine est un double coffre, tous ses coffres comptent double.</li>
<li><strong>Victoire</strong> : 60 points (équipes), 40/45/50 points à 2/3/4 joueurs ; le plus haut total gagne.</li>
</ul>`,
    digger: `
<p><strong>Digger</strong> (Roberto Fraga) : lancez cinq dés, raflez les gemmes sorties une seule fois, et arrêtez-vous avant la fin du sablier.</p>
<ul>
<li><strong>À votre tour</strong>, lancez les cinq dés. Pour chaque couleur sortie sur <em>un seul</em> dé, vous pouvez prendre un jeton de cette couleur dans la réserve.</li>
<li><strong>Noir une seule fois</strong> : vous pouvez plutôt voler ces gemmes (pas le bleu) dans les caisses des autres.</li>
<li><strong>Relancez</strong> autant que vous l'osez. Tout ce que vous prenez ce tour forme votre <strong>butin</strong>, encore en jeu.</li>
<li><strong>Stop</strong> met le butin à l'abri : les gemmes dans votre caisse, le bleu (l'eau) dans la boîte.</li>
<li><strong>Le sablier</strong> (30 s) démarre à votre premier lancer et vous est caché. S'il s'écoule avant votre « stop », tout le butin retourne à la réserve.</li>
<li><strong>Fin</strong> : quand il n'y a plus de jeton bleu dans la réserve. Chaque gemme vaut sa valeur sur votre carte caisse ; le bleu ne vaut rien. Le meilleur score gagne.</li>
</ul>`,
  },
  de: {
    digging: `
<p><strong>Digging</strong> (Reiner Knizia): Minen eröffnen, mit Truhen füllen, zum Punkten schließen und Banditen auf fremde Minen hetzen.</p>
<ul>
<li><strong>Karten</strong>: 9 Minen (Gold, Silber, Kupfer), 27 Truhen, 3 Doppeltruhen, 9 Karten „Mine geschlossen“, Banditen 1 bis 12.</li>
<li><strong>Geben</strong>: je sechs Karten; der Rest ist der Nachziehstapel. Links vom Geber wird begonnen.</li>
<li><strong>Ein Zug ist eine Aktion</strong>: eine Karte ziehen, dem Partner eine Karte geben (Partnerspiel) oder eine Karte ausspielen. Aussetzen nur, wenn nichts möglich ist.</li>
<li><strong>Mine</strong>: eröffnet eine neue Mine ihres Metalls in der Auslage <em>irgendeines</em> Spielers.</li>
<li><strong>Truhe</strong>: an eine offene Mine desselben Metalls, in jeder Auslage.</li>
<li><strong>„Mine geschlossen“</strong>: schließt eine offene Mine; ihre Punkte gehören dem Spieler, in dessen Auslage sie liegt.</li>
<li><strong>Banditen</strong>: einen an eine gegnerische offene Mine mit Truhe legen beginnt einen Kampf. Der nächste Zug jedes anderen Spielers ist seine einzige Chance, mit einem Banditen einzugreifen. Ist der Angreifer wieder dran: im Partnerspiel zählen die Summen (Gleichstand verteidigt), sonst gewinnt der höchste Bandit die Mine.</li>
<li><strong>Rundenende</strong>: nach der letzten gezogenen Karte hat jeder noch einen Zug.</li>
<li><strong>Wertung</strong>: nur geschlossene Minen zählen: Goldtruhe 3, Silber 2, Kupfer 1; eine Doppeltruhe zählt doppelt. Ist die erste Truhe einer Mine eine Doppeltruhe, zählen alle ihre Truhen doppelt.</li>
<li><strong>Sieg</strong>: 60 Punkte (Partnerspiel), 40/45/50 Punkte zu zweit/dritt/viert; die höchste Summe gewinnt.</li>
</ul>`,
    digger: `
<p><strong>Digger</strong> (Roberto Fraga): fünf Würfel werfen, die Edelsteine schnappen, die genau einmal zu sehen sind, und aufhören, bevor die Sanduhr abläuft.</p>
<ul>
<li><strong>In deinem Zug</strong> wirfst du alle fünf Würfel. Für jede Farbe, die auf <em>genau einem</em> Würfel liegt, darfst du ein Plättchen dieser Farbe aus dem Vorrat nehmen.</li>
<li><strong>Schwarz genau einmal</strong>: stattdessen darfst du diese Edelsteine (nicht Blau) aus den Kisten der anderen klauen.</li>
<li><strong>Würfle erneut</strong>, so oft du dich traust. Alles in diesem Zug Genommene ist deine <strong>Beute</strong> und noch in Gefahr.</li>
<li><strong>Stopp</strong> sichert die Beute: Edelsteine in deine Kiste, Blau (Wasser) in die Schachtel.</li>
<li><strong>Die Sanduhr</strong> (30 s) läuft ab deinem ersten Wurf und ist vor dir verborgen. Läuft sie vor deinem „Stopp“ ab, geht die ganze Beute zurück in den Vorrat.</li>
<li><strong>Ende</strong>: wenn kein blaues Plättchen mehr im Vorrat liegt. Jeder Edelstein zählt seinen Wert auf deiner Kistenkarte; Blau zählt nichts. Die meisten Punkte gewinnen.</li>
</ul>`,
  },
};

// ---------------------------------------------------------------------------
// The chosen language
// ---------------------------------------------------------------------------
const KEY = "goldfields.lang";
let current = pick();
const listeners = [];

function pick() {
  const fromUrl = new URLSearchParams(window.location.search).get("lang");
  if (fromUrl && LANGS[fromUrl]) {
    // Kept, so that the next page (the lobby's link to a table) speaks it too.
    try {
      localStorage.setItem(KEY, fromUrl);
    } catch {
      /* no storage: this page only */
    }
    return fromUrl;
  }
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && LANGS[saved]) return saved;
  } catch {
    /* no storage */
  }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS[short]) return short;
  }
  return "en";
}

export const lang = () => current;

export function setLang(code) {
  if (!LANGS[code] || code === current) return;
  current = code;
  try {
    localStorage.setItem(KEY, code);
  } catch {
    /* no storage */
  }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLanguage(fn) {
  listeners.push(fn);
}

export function t(key, params) {
  let text = STRINGS[current][key];
  if (text === undefined) text = en[key];
  if (text === undefined) return key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? show(params[name]) : m));
  return text;
}

/** A number the way the page's language writes it ("0,5" in French and German): up to
 * `digits` decimals, or exactly that many when `fixed` (a clock that must not jitter). */
export function num(value, digits = 1, fixed = false) {
  const decimals = { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 };
  return new Intl.NumberFormat(current, decimals).format(value);
}

function show(value) {
  return typeof value === "number" && !Number.isInteger(value) ? num(value) : String(value);
}

/** Fill [data-i18n] (text) and [data-i18n-attr="attr:key;attr:key"] in `root`. */
export function applyI18n(root) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

export function initLanguagePicker(select) {
  if (!select) return;
  select.replaceChildren(
    ...Object.entries(LANGS).map(([code, label]) => {
      const o = document.createElement("option");
      o.value = code;
      o.textContent = label;
      o.lang = code;
      o.selected = code === current;
      return o;
    }),
  );
  select.addEventListener("change", () => setLang(select.value));
  onLanguage((code) => {
    select.value = code;
  });
}

export function rulesHtml(game) {
  return (RULES[current] || RULES.en)[game] || RULES.en[game] || "";
}

export function optionText(game, key) {
  const text = t(`opt.${game}.${key}`);
  return text === `opt.${game}.${key}` ? "" : text;
}

/** An error (an ApiError, or a WebSocket error message) in words, in the current language. */
const METAL_LETTER = { gold: "G", silver: "S", copper: "C" };

/** A refused move's reason (the engine's key and values), in the current language; null
 * when this page does not know the reason (then the server's English words are shown). */
function reasonText(err) {
  const key = `why.${err.reason}`;
  if (!err.reason || !STRINGS.en[key]) return null;
  const p = err.params || {};
  const values = { ...p };
  if (p.card) values.card = cardName(p.card);
  if (p.chest) values.chest = t(`metalWord.${METAL_LETTER[p.chest] || "G"}`);
  if (p.metal) values.metalOf = t(`metalOf.${METAL_LETTER[p.metal] || "G"}`); // French elides: "d'or"
  if (p.colour) values.colour = t(`colour.${p.colour}`);
  return `${err.rule}: ${t(key, values)}`;
}

export function errorText(err) {
  const code = err.code || "other";
  const reason = code === "illegal" ? reasonText(err) : null;
  const message = reason || err.message || "";
  if (code === "illegal" && (err.rule === "turn" || err.rule === "end")) return t(`err.${err.rule}`);
  const key = `err.${code}`;
  if (STRINGS.en[key]) return t(key, { message });
  return t("err.other", { message: message || code });
}

/** A bot's description in the page's language; the server's (English) words for a bot this
 * page does not know. */
export function botText(name, serverText) {
  const key = `botDesc.${name}`;
  return STRINGS.en[key] ? t(key) : serverText || "";
}

/** A seat label from the server ("team A") in the page's language. */
export function seatLabel(label) {
  const team = /^team ([AB])$/.exec(label || "");
  return team ? t(`dig.team${team[1]}`) : label;
}
