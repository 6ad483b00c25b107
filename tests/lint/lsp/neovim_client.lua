-- Neovim as a real client of `emberlint lsp` (run by tests/lint/lsp/neovim_test.sh). Neovim 0.7 (Debian 12)
-- has vim.lsp.start_client and buf_attach_client; vim.lsp.start came with 0.8. Writes one line per step to
-- $EMBERLINT_RESULT: the diagnostics Neovim received, the code actions it was offered, the diagnostics
-- after it applied the fix through its own workspace-edit code.
local exe = os.getenv('EMBERLINT_EXE')
local root = os.getenv('EMBERLINT_PROJECT')
local result = os.getenv('EMBERLINT_RESULT')
local lines = {}
-- No wall-clock limit that a loaded machine could break: vim.wait needs one, so it is 2^31 - 1 ms (24 days).
local forever = 2 ^ 31 - 1

local function diagnostics(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, string.format('%d:%d %s %s', d.lnum, d.col, d.code or lsp.code or '?', d.message))
  end
  table.sort(out)
  return out
end

local function run()
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/frontend/demo.cpp'))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'emberlint',
    cmd = { exe, 'lsp', '--no-cache', '--debounce-ms', '20' },
    root_dir = root,
  })
  assert(id, 'the server did not start')
  vim.lsp.buf_attach_client(buf, id)
  -- As docs/editors.md's Neovim 0.7 snippet: the config files' buffers are attached too, so that saving one
  -- sends didSave (0.7 registers no file watchers for the server).
  vim.api.nvim_create_autocmd('BufReadPost', {
    pattern = { '.emberlint.json', 'compile_commands.json' },
    callback = function(args) vim.lsp.buf_attach_client(args.buf, id) end,
  })

  assert(vim.wait(forever, function() return #vim.diagnostic.get(buf) > 0 end, 50), 'no diagnostics')
  for _, l in ipairs(diagnostics(buf)) do table.insert(lines, 'diagnostic ' .. l) end

  local d = vim.diagnostic.get(buf)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = { d.user_data.lsp } },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, forever)
  local actions = responses and responses[id] and responses[id].result or {}
  for _, a in ipairs(actions) do table.insert(lines, 'action ' .. a.title) end
  assert(actions[1] and actions[1].edit, 'no fix offered')

  local original = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1]
  vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
  table.insert(lines, 'line ' .. vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1])
  assert(vim.wait(forever, function() return #vim.diagnostic.get(buf) == 0 end, 50), 'the fix left diagnostics')
  table.insert(lines, 'after the fix: ' .. #vim.diagnostic.get(buf) .. ' diagnostics')

  -- The operator back, then EL200 turned off in .emberlint.json, saved in Neovim: the server reloads the
  -- config on that save and checks the open file again.
  vim.api.nvim_buf_set_lines(buf, d.lnum, d.lnum + 1, false, { original })
  assert(vim.wait(forever, function() return #vim.diagnostic.get(buf) > 0 end, 50), 'the finding did not return')
  vim.cmd('set hidden')
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/.emberlint.json'))
  local config = vim.api.nvim_get_current_buf()
  local text = table.concat(vim.api.nvim_buf_get_lines(config, 0, -1, false), '\n')
  local off, n = text:gsub('"EL200": {', '"EL200": {"severity": "off", ', 1)
  assert(n == 1, 'the fixture config has no EL200 entry')
  vim.api.nvim_buf_set_lines(config, 0, -1, false, vim.split(off, '\n', { plain = true }))
  vim.cmd('write')
  assert(vim.wait(forever, function() return #vim.diagnostic.get(buf) == 0 end, 50), 'the config save was not seen')
  table.insert(lines, 'after the config save: ' .. #vim.diagnostic.get(buf) .. ' diagnostics')
end

local ok, err = pcall(run)
if not ok then table.insert(lines, 'error: ' .. tostring(err)) end
vim.fn.writefile(lines, result)
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.cmd(ok and 'qa!' or 'cquit 1')
