-- Runs the plugin against the real server and checks the flags buffer: started
-- for ada (gold, in Norway), then :BuntingUser grace, then an edit of the
-- definitions file that turns dark-mode off, then :BuntingStop. Each step
-- waits for its event with a deadline; the buffer must then hold exactly the
-- lines of expected-ada.txt, expected-grace.txt and expected-edited.txt.
-- Exits 0 when all holds, else 1 with what went wrong on stderr. Run by
-- test/run, which gives a scratch directory in $BUNTING_TEST_DIRECTORY.
local here = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
local DEADLINE = 20000 -- ms: generous for a loaded machine; a passing run takes a few

local function read_lines(path)
  local lines = {}
  for line in io.lines(path) do lines[#lines + 1] = line end
  return lines
end

local function wait(what, condition)
  if not vim.wait(DEADLINE, condition, 10) then
    error(string.format("no %s within %d ms; the buffer shows:\n%s", what, DEADLINE, table.concat(require("bunting").lines(), "\n")), 0)
  end
end

local function expect_buffer(expected_file)
  local state = require("bunting").state
  local actual = vim.api.nvim_buf_get_lines(state.buffer, 0, -1, false)
  local expected = read_lines(here .. "/" .. expected_file)
  if not vim.deep_equal(actual, expected) then
    error(string.format("the buffer is not as in %s:\nexpected\n%s\nactual\n%s", expected_file,
      table.concat(expected, "\n"), table.concat(actual, "\n")), 0)
  end
  io.stdout:write("ok the flags buffer for " .. state.user .. " is as in " .. expected_file .. "\n")
end

local function test()
  vim.cmd("runtime plugin/bunting.lua")
  local bunting = require("bunting")
  -- A copy of the definitions, to edit; polled often, so that the edit shows soon.
  local definitions = vim.env.BUNTING_TEST_DIRECTORY .. "/definitions.json"
  vim.fn.writefile(read_lines(here .. "/definitions.json"), definitions)
  bunting.defaults.definitions = definitions
  bunting.defaults.args = { "--poll-interval", "0.05" }

  bunting.start({ user = "ada", attributes = { tier = "gold", country = "NO" } })
  bunting.show()
  wait("DATA_UPDATED for ada", function() return bunting.state.user == "ada" and bunting.state.synced end)
  if vim.api.nvim_buf_get_name(0) ~= "bunting://feature-flags" then error("the flags buffer is not shown", 0) end
  expect_buffer("expected-ada.txt")

  vim.cmd("BuntingUser grace")
  wait("DATA_UPDATED for grace", function() return bunting.state.user == "grace" and bunting.state.synced end)
  expect_buffer("expected-grace.txt")

  -- A new version is written beside the file and renamed over it, as a deployment would.
  local edited = vim.tbl_map(function(line)
    return (line:gsub('^(%s*"dark%-mode": .*"defaultVariant": )"on"', '%1"off"'))
  end, read_lines(definitions))
  vim.fn.writefile(edited, definitions .. ".new")
  assert(os.rename(definitions .. ".new", definitions))
  wait("DATA_UPDATED after the edit", function()
    for _, flag in ipairs(bunting.state.flags) do
      if flag.id == "dark-mode" then return not flag.enabled end
    end
    return false
  end)
  expect_buffer("expected-edited.txt")

  vim.cmd("BuntingStop")
  wait("exit of the server", function() return bunting.state.exit_code ~= nil end)
  if bunting.state.exit_code ~= 0 then error("the server exited with status " .. bunting.state.exit_code, 0) end
  io.stdout:write("ok the server shut down with status 0\n")
end

local ok, problem = xpcall(test, debug.traceback)
if ok then
  vim.cmd("qall!")
else
  io.stderr:write("FAIL " .. tostring(problem) .. "\n")
  vim.cmd("cquit 1")
end
