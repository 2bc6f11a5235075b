Content-Length: 58

{"jsonrpc":"2.0","id":1,"method":"subscribeToDefinitions"}Content-Length: 78

{"jsonrpc":"2.0","id":2,"method":"getFeatureFlag","params":{"id":"search-v2"}}Content-Length: 81

{"jsonrpc":"2.0","id":3,"method":"subscribe","params":{"channel":"featureFlags"}}Content-Length: 104

{"jsonrpc":"2.0","id":4,"method":"changeUser","params":{"userId":"grace","attributes":{"country":"NO"}}}Content-Length: 78

{"jsonrpc":"2.0","id":5,"method":"getFeatureFlag","params":{"id":"search-v2"}}Content-Length: 152

{"jsonrpc":"2.0","id":6,"method":"evaluateFlag","params":{"flagKey":"welcome-copy","context":{"targetingKey":"grace","locale":"en-GB"},"type":"string"}}Content-Length: 136

{"jsonrpc":"2.0","id":7,"method":"evaluateFlag","params":{"flagKey":"welcome-copy","context":{"targetingKey":"grace"},"type":"boolean"}}Content-Length: 87

{"jsonrpc":"2.0","id":8,"method":"track","params":{"name":"opened-settings","value":1}}Content-Length: 81

{"jsonrpc":"2.0","id":9,"method":"getBanner","params":{"placementId":"home-top"}}Content-Length: 45

{"jsonrpc":"2.0","id":10,"method":"shutdown"}