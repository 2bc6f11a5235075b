-- Bunting in Neovim: starts `bunting serve` as a child process speaking LSP
-- framing (Content-Length frames, what vim.lsp.rpc speaks), subscribes to the
-- featureFlags channel, changes user, and keeps a buffer showing each of the
-- user's flags with whether it is enabled. The buffer is redrawn on every
-- event that carries the channel's snapshot (CACHE_REPLAY, CACHE_LOAD,
-- DATA_UPDATED), so an edit of the definitions file shows up by itself.
--
--   require("bunting").start({ user = "ada", definitions = "flags.json" })
--   require("bunting").change_user("grace", { tier = "gold" })
--   require("bunting").stop()
--
-- The commands of plugin/bunting.lua call these: :BuntingStart [user],
-- :BuntingUser {user}, :BuntingStop.

local M = {}

M.defaults = {
  binary = nil, -- nil: $BUNTING_BIN, else `bunting` on the PATH
  definitions = nil, -- nil: the server's bundled example
  storage = ":memory:", -- a directory to keep the user and their caches across restarts
  user = nil, -- a user to change to once subscribed
  attributes = nil, -- that user's attributes
  args = {}, -- more `bunting serve` arguments, e.g. { "--poll-interval", "5" }
}

--- What the plugin knows; read by the buffer and by tests.
M.state = {
  rpc = nil, -- the vim.lsp.rpc client, while the server runs
  buffer = nil,
  user = nil, -- the user whose changeUser the server has answered
  flags = {}, -- the last snapshot's feature flags, in the server's order
  event = nil, -- the type (and reason) of the last snapshot's event
  synced = false, -- whether a DATA_UPDATED arrived for the current user
  problem = nil, -- the last error, shown in the buffer's first line
  exit_code = nil, -- the server's exit status, once it has exited
}

local BUFFER_NAME = "bunting://feature-flags"

local function buffer()
  local state = M.state
  if state.buffer and vim.api.nvim_buf_is_valid(state.buffer) then return state.buffer end
  state.buffer = vim.api.nvim_create_buf(true, true)
  vim.api.nvim_buf_set_name(state.buffer, BUFFER_NAME)
  vim.bo[state.buffer].buftype = "nofile"
  vim.bo[state.buffer].bufhidden = "hide"
  vim.bo[state.buffer].swapfile = false
  vim.bo[state.buffer].modifiable = false
  return state.buffer
end

--- The buffer's lines: a heading with the user and the last event, then one line a flag.
function M.lines()
  local state = M.state
  local heading = "Bunting feature flags"
  if state.user then heading = heading .. " for " .. state.user end
  if state.event then heading = heading .. ": " .. state.event end
  if state.problem then heading = heading .. " (" .. state.problem .. ")" end
  local lines = { heading }
  local width = 0
  for _, flag in ipairs(state.flags) do width = math.max(width, #flag.id) end
  for _, flag in ipairs(state.flags) do
    lines[#lines + 1] = string.format("%-" .. width .. "s  %s", flag.id, flag.enabled and "enabled" or "disabled")
  end
  if #state.flags == 0 then lines[#lines + 1] = "(no flags)" end
  return lines
end

local function render()
  local target = buffer()
  vim.bo[target].modifiable = true
  vim.api.nvim_buf_set_lines(target, 0, -1, false, M.lines())
  vim.bo[target].modifiable = false
end

local function on_notification(method, params)
  local state = M.state
  if method ~= "event" or params.channel ~= "featureFlags" then return end
  if params.cacheSnapshot then
    state.flags = params.cacheSnapshot.featureFlags or {}
    state.event = params.type .. (params.reason and " (" .. params.reason .. ")" or "")
    state.problem = nil
    if params.type == "DATA_UPDATED" then state.synced = true end
  elseif params.type == "ERROR" then
    state.problem = params.reason .. (params.message and ": " .. params.message or "")
  else
    return -- impressions and custom events change no flag
  end
  render()
end

-- Neovim 0.10 takes the command as one list; 0.7 to 0.9 take the program and its arguments apart.
local function spawn(argv, dispatchers)
  if vim.fn.has("nvim-0.10") == 1 then return vim.lsp.rpc.start(argv, dispatchers) end
  return vim.lsp.rpc.start(argv[1], vim.list_slice(argv, 2), dispatchers)
end

--- Sends a request; `then_` gets the result, an error reply is shown in the buffer.
local function request(method, params, then_)
  M.state.rpc.request(method, params, function(err, result)
    if err then
      M.state.problem = string.format("%s: %s", method, err.message or vim.inspect(err))
      render()
      return
    end
    if then_ then then_(result) end
  end)
end

--- Starts the server, subscribes to feature flags and, given a user, changes to them.
function M.start(options)
  if M.state.rpc then M.stop() end
  options = vim.tbl_extend("force", M.defaults, options or {})
  local binary = options.binary or vim.env.BUNTING_BIN
  if binary == nil or binary == "" then binary = "bunting" end
  local argv = { binary, "serve", "--framing", "lsp", "--storage", options.storage }
  if options.definitions then vim.list_extend(argv, { "--definitions", options.definitions }) end
  vim.list_extend(argv, options.args)

  M.state = { flags = {}, synced = false, buffer = M.state.buffer }
  local rpc = spawn(argv, {
    notification = on_notification,
    on_exit = function(code)
      M.state.exit_code = code
      M.state.rpc = nil
    end,
  })
  if not rpc then error("bunting: could not start " .. binary) end
  M.state.rpc = rpc
  render()
  -- Subscribe first: changing user refreshes the subscribed channels only.
  request("subscribe", { channel = "featureFlags" }, function()
    if options.user then M.change_user(options.user, options.attributes) end
  end)
  return buffer()
end

--- Changes the server's user; the buffer follows with the user's flags.
function M.change_user(user, attributes)
  local params = { userId = user }
  if attributes then params.attributes = attributes end
  request("changeUser", params, function()
    -- The reply comes before the new user's CACHE_LOAD and DATA_UPDATED.
    M.state.user = user
    M.state.synced = false
    render()
  end)
end

--- Asks the server to shut down (it flushes its analytics first) and to exit.
function M.stop()
  if M.state.rpc then request("shutdown", nil) end
end

--- Opens the flags buffer in the current window.
function M.show()
  vim.api.nvim_set_current_buf(buffer())
end

return M
