Content-Length: 116

{"jsonrpc":"2.0","id":1,"method":"evaluateFlag","params":{"flagKey":"f","context":{"tier":"gold"},"type":"boolean"}}Content-Length: 5

[1,2]