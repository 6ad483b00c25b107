// The VS Code client of `emberlint lsp`: starts the server over stdio for C, C++, CUDA and Objective-C++
// files and passes the settings on as initializationOptions. Install: see docs/editors.md.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration('emberlint');
  const server = { command: settings.get('path'), args: ['lsp'] };
  client = new LanguageClient('emberlint', 'emberlint', server, {
    documentSelector: ['c', 'cpp', 'cuda-cpp', 'objective-cpp'].map((language) => ({ scheme: 'file', language })),
    initializationOptions: { buildDir: settings.get('buildDir') || undefined, debounceMs: settings.get('debounceMs') },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{.emberlint.json,compile_commands.json}'),
    },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
