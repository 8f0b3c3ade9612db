// The rulecraft extension: highlighting comes from the TextMate grammar (package.json); this
// file starts the language client, which runs `rulecraft lsp` over stdio. The server (in the
// rulecraft Python package) does everything else: diagnostics, hover, definitions,
// references, completion, symbols, formatting and the validator's did-you-mean fixes.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

/** The command and arguments that start the server, from the user's settings. */
function serverCommand(config) {
  const command = config.get("server.command", "rulecraft");
  const extra = config.get("server.extraArgs", []);
  return { command, args: ["lsp", ...extra], transport: TransportKind.stdio };
}

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulecraft");
  const server = serverCommand(config);
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "rulecraft" }],
    synchronize: {
      // Whole-ruleset checks depend on the manifest too.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{ruleset.yaml,*.rcl}"),
    },
  };
  client = new LanguageClient("rulecraft", "rulecraft", { run: server, debug: server }, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, serverCommand };
