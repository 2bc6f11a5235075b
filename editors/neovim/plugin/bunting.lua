-- :BuntingStart [user]  starts Bunting (require("bunting").defaults for options) and shows the flags buffer
-- :BuntingUser {user}   changes user; the buffer follows
-- :BuntingStop          shuts the server down
if vim.g.loaded_bunting then return end
vim.g.loaded_bunting = true

vim.api.nvim_create_user_command("BuntingStart", function(command)
  local bunting = require("bunting")
  bunting.start({ user = command.args ~= "" and command.args or bunting.defaults.user })
  bunting.show()
end, { nargs = "?", desc = "Start Bunting and show the feature flags buffer" })

vim.api.nvim_create_user_command("BuntingUser", function(command)
  require("bunting").change_user(command.args)
end, { nargs = 1, desc = "Change Bunting's user" })

vim.api.nvim_create_user_command("BuntingStop", function()
  require("bunting").stop()
end, { desc = "Shut Bunting down" })
