"""The REPL's own words, in English and German (``--lang``); game text comes from the ruleset.

Every sentence the REPL itself prints is looked up here by a key, so a German game is not
played under English menus.  A language without a catalogue falls back to English.

>>> Messages("de")("no_option", number=7, last=3)
'Es gibt keine Option 7: wähle 1-3.'
>>> Messages("fr")("bye")
'Bye.'
"""

from __future__ import annotations

import string
from collections.abc import Mapping

#: key -> language -> text; ``{name}`` fields are filled by :meth:`Messages.__call__`.
CATALOGUE: Mapping[str, Mapping[str, str]] = {
    # -- commands and their help -------------------------------------------------------------
    "help_intro": {
        "en": "Type an option's number, id, label or a unique prefix to choose it, or a command:",
        "de": "Wähle eine Option mit Nummer, Id, Text oder eindeutigem Anfang, oder gib einen "
        "Befehl ein:",
    },
    "help.help": {"en": "list the commands", "de": "die Befehle zeigen"},
    "help.state": {
        "en": "show the whole table (every zone, the map, the options)",
        "de": "den ganzen Tisch zeigen (alle Bereiche, die Karte, die Optionen)",
    },
    "help.map": {"en": "show the map with its legend", "de": "die Karte mit Legende zeigen"},
    "help.show": {
        "en": "a card's text (by name or id), if you can see it",
        "de": "der Text einer Karte (Name oder Id), wenn du sie sehen darfst",
    },
    "help.log": {
        "en": "the last N log lines (default {default})",
        "de": "die letzten N Zeilen des Protokolls (Standard {default})",
    },
    "help.undo": {
        "en": "take back your last N decisions (default 1)",
        "de": "deine letzten N Entscheidungen zurücknehmen (Standard 1)",
    },
    "help.save": {
        "en": "save the game (and seats, language) to FILE",
        "de": "das Spiel (mit Plätzen und Sprache) in DATEI speichern",
    },
    "help.load": {
        "en": "load a game saved with 'save'",
        "de": "ein mit 'save' gespeichertes Spiel laden",
    },
    "help.hint": {
        "en": "what the {agent} bot would pick",
        "de": "was der Bot {agent} wählen würde",
    },
    "help.odds": {
        "en": "the exact odds of the pending roll or test, or of your options' rolls",
        "de": "die genauen Chancen des anstehenden Wurfs oder Tests oder der Würfe deiner Optionen",
    },
    "help.quit": {"en": "leave the game", "de": "das Spiel verlassen"},
    "help.solve": {
        "en": "the best plan from here for your seat (objectives: expressions, by priority)",
        "de": "der beste Plan von hier für deinen Platz (Ziele: Ausdrücke, nach Vorrang)",
    },
    "arg.card": {"en": "CARD", "de": "KARTE"},
    "arg.file": {"en": "FILE", "de": "DATEI"},
    # -- the session -------------------------------------------------------------------------
    "welcome": {
        "en": "{game}: seed {seed}, seats {seats}. Type 'help' for commands.",
        "de": "{game}: Startwert {seed}, Plätze {seats}. 'help' zeigt die Befehle.",
    },
    "end_of_input": {
        "en": "End of input: leaving the game.",
        "de": "Ende der Eingabe: das Spiel wird verlassen.",
    },
    "bye": {"en": "Bye.", "de": "Tschüss."},
    "game_over": {"en": "Game over.", "de": "Spielende."},
    "result_draw": {"en": "Game over: a draw", "de": "Spielende: unentschieden"},
    "result_winners": {
        "en": "Game over: winner(s) seat {seats}",
        "de": "Spielende: Sieger Platz {seats}",
    },
    "result_nobody": {"en": "Game over: nobody wins", "de": "Spielende: niemand gewinnt"},
    "no_option": {
        "en": "There is no option {number}: pick 1-{last}.",
        "de": "Es gibt keine Option {number}: wähle 1-{last}.",
    },
    "too_long_number": {
        "en": "'{start}...' ({digits} digits) is no option number: pick 1-{last}.",
        "de": "'{start}...' ({digits} Ziffern) ist keine Optionsnummer: wähle 1-{last}.",
    },
    "refused": {
        "en": "That choice was refused: {reason}",
        "de": "Diese Wahl wurde abgelehnt: {reason}",
    },
    "unknown": {
        "en": "Unknown command or option '{text}'.{hint} Type a number 1-{last}, an option's "
        "id or label, or 'help'.",
        "de": "Unbekannter Befehl oder Option '{text}'.{hint} Gib eine Nummer 1-{last}, die Id "
        "oder den Text einer Option oder 'help' ein.",
    },
    "did_you_mean": {"en": " Did you mean '{word}'?", "de": " Meintest du '{word}'?"},
    "ambiguous": {
        "en": "'{text}' fits {count} options: {choices}. Type more of it, or a number.",
        "de": "'{text}' passt zu {count} Optionen: {choices}. Tippe mehr davon oder eine Nummer.",
    },
    "bad_input": {
        "en": "That line holds control characters; it was ignored.",
        "de": "Die Zeile enthält Steuerzeichen; sie wurde ignoriert.",
    },
    "line_too_long": {
        "en": "That line is {length} characters long (at most {limit}); it was ignored.",
        "de": "Die Zeile ist {length} Zeichen lang (höchstens {limit}); sie wurde ignoriert.",
    },
    "bot_failed": {
        "en": "bot at seat {seat} ({spec}) failed: {reason}",
        "de": "der Bot auf Platz {seat} ({spec}) ist gescheitert: {reason}",
    },
    "bot_chose": {"en": "{who} chose: {label}", "de": "{who} wählt: {label}"},
    "bot_answered": {
        "en": '{who} answered "{prompt}" (the answer is hidden from you)',
        "de": '{who} beantwortet "{prompt}" (die Antwort ist vor dir verborgen)',
    },
    "bot_hidden": {
        "en": "{who} made a choice hidden from you",
        "de": "{who} trifft eine Wahl, die vor dir verborgen ist",
    },
    # -- the screen --------------------------------------------------------------------------
    "header": {
        "en": "{title} | turn {turn}, round {round} | {decider}",
        "de": "{title} | Zug {turn}, Runde {round} | {decider}",
    },
    "header_phase": {"en": " | phase: {phase}", "de": " | Phase: {phase}"},
    "decides": {"en": "seat {seat} decides", "de": "Platz {seat} entscheidet"},
    "you_are": {"en": "you are seat {seat}", "de": "du bist Platz {seat}"},
    "nobody_decides": {"en": "nobody decides", "de": "niemand entscheidet"},
    "since_last": {"en": "Since your last decision:", "de": "Seit deiner letzten Entscheidung:"},
    "earlier_lines": {
        "en": "  ... {count} earlier lines ('log {count_all}' shows them)",
        "de": "  ... {count} frühere Zeilen ('log {count_all}' zeigt sie)",
    },
    "screen_hint": {
        "en": "('state' shows the whole table, 'help' the commands)",
        "de": "('state' zeigt den ganzen Tisch, 'help' die Befehle)",
    },
    "players_line": {"en": "Players: {players}", "de": "Spieler: {players}"},
    "seat_word": {"en": "seat", "de": "Platz"},
    "decision_line": {"en": "Seat {seat}: {prompt}", "de": "Platz {seat}: {prompt}"},
    "col.seat": {"en": "seat", "de": "Platz"},
    "col.name": {"en": "name", "de": "Name"},
    "col.resources": {"en": "resources", "de": "Ressourcen"},
    "col.flags": {"en": "flags", "de": "Merkmale"},
    "col.card": {"en": "card", "de": "Karte"},
    "col.kind": {"en": "kind", "de": "Art"},
    "col.state": {"en": "state", "de": "Zustand"},
    "players_title": {"en": "Players", "de": "Spieler"},
    "hidden": {"en": "(hidden)", "de": "(verdeckt)"},
    "zone_seat": {"en": "seat {seat}", "de": "Platz {seat}"},
    "zone_empty": {"en": "empty", "de": "leer"},
    "zone_hidden": {"en": "{count} hidden cards", "de": "{count} verdeckte Karten"},
    "zone_hidden_one": {"en": "1 hidden card", "de": "1 verdeckte Karte"},
    "exhausted": {"en": "exhausted", "de": "erschöpft"},
    "globals": {"en": "Globals: {values}", "de": "Globale Werte: {values}"},
    "map_title": {"en": "Map ({kind}):", "de": "Karte ({kind}):"},
    "map_hex_axes": {
        "en": "(hex q,r: q along the top, r down the side)",
        "de": "(Hex q,r: q oben, r an der Seite)",
    },
    "map_legend": {"en": "Legend: {entries}", "de": "Legende: {entries}"},
    "map_terrain": {"en": "Terrain: {entries}", "de": "Gelände: {entries}"},
    "no_map": {"en": "This game has no map.", "de": "Dieses Spiel hat keine Karte."},
    # -- commands' answers -------------------------------------------------------------------
    "usage": {"en": "Usage: {usage}", "de": "Aufruf: {usage}"},
    "usage_count": {
        "en": "Usage: {usage} (N is a whole number, 1 or more)",
        "de": "Aufruf: {usage} (N ist eine ganze Zahl ab 1)",
    },
    "usage_show": {
        "en": "Usage: show CARD (a card's name or id)",
        "de": "Aufruf: show KARTE (Name oder Id)",
    },
    "sees_no_card": {
        "en": "Seat {seat} sees no card called '{name}'.",
        "de": "Platz {seat} sieht keine Karte namens '{name}'.",
    },
    "log_empty": {"en": "The log is empty.", "de": "Das Protokoll ist leer."},
    "nothing_to_undo": {"en": "Nothing to undo.", "de": "Nichts zurückzunehmen."},
    "undid_one": {"en": "Undid 1 decision.", "de": "1 Entscheidung zurückgenommen."},
    "undid": {"en": "Undid {count} decisions.", "de": "{count} Entscheidungen zurückgenommen."},
    "saved": {"en": "Saved to {path}.", "de": "Gespeichert in {path}."},
    "cannot_save": {
        "en": "Could not save to {path}: {reason}",
        "de": "Speichern in {path} ging nicht: {reason}",
    },
    "loaded": {"en": "Loaded {path}.", "de": "{path} geladen."},
    "cannot_read": {
        "en": "Could not read {path}: {reason}. The current game goes on.",
        "de": "{path} ist nicht lesbar: {reason}. Das laufende Spiel geht weiter.",
    },
    "cannot_load": {
        "en": "Could not load {path}: {reason}. The current game goes on.",
        "de": "{path} lässt sich nicht laden: {reason}. Das laufende Spiel geht weiter.",
    },
    "not_json": {"en": "not valid JSON ({reason})", "de": "kein gültiges JSON ({reason})"},
    "damaged": {
        "en": "the saved game is damaged ({reason})",
        "de": "das gespeicherte Spiel ist beschädigt ({reason})",
    },
    "no_hint": {"en": "No hint available: {reason}", "de": "Kein Tipp verfügbar: {reason}"},
    "hint": {"en": "Hint ({agent}): {choice}{why}", "de": "Tipp ({agent}): {choice}{why}"},
    "hint_effort": {
        "en": " (best after {count} simulated playouts)",
        "de": " (am besten nach {count} simulierten Partien)",
    },
    "no_solve": {"en": "Cannot solve here: {reason}", "de": "Hier nicht lösbar: {reason}"},
    "no_roll": {"en": "No roll or test is pending.", "de": "Kein Wurf und kein Test steht an."},
    "no_roll_options": {
        "en": "No roll or test is pending, and none of your options rolls dice.",
        "de": "Kein Wurf und kein Test steht an, und keine deiner Optionen würfelt.",
    },
    "rolls": {"en": "rolls {pool}", "de": "würfelt {pool}"},
    "odds_depend": {
        "en": "(after a shuffle or another roll: the pool itself may differ)",
        "de": "(nach einem Mischen oder einem anderen Wurf: der Wurf selbst kann anders sein)",
    },
}

#: The languages with a full catalogue.
LANGUAGES: tuple[str, ...] = ("en", "de")
DEFAULT_LANGUAGE = "en"


def fields(text: str) -> set[str]:
    """The ``{name}`` fields a message fills.

    >>> sorted(fields("{a} and {b}"))
    ['a', 'b']
    """
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Messages:
    """The catalogue in one language: ``messages("key", field=value)`` is the text."""

    def __init__(self, lang: str | None) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE

    def __call__(self, key: str, **values: object) -> str:
        texts = CATALOGUE[key]
        text = texts.get(self.lang) or texts[DEFAULT_LANGUAGE]
        return text.format(**values) if values else text
