# {{appName}}

A Herald application: each action is written once and served over HTTP, WebSocket, the command
line, background tasks and MCP. Herald's guides are the `docs/` folder of its repository.

```sh
npm install
npm start                         # http://127.0.0.1:8080/api/hello?who=Ada
npm run dev                       # the same, reloaded in place on each change to the code
npm test
npx herald actions                # every action, with its routes and queues
npx herald hello:say --who Ada    # run an action from the command line
npx herald generate action users:create
```

In development, http://127.0.0.1:8080/ shows what the app serves: its actions, links to the API
reference, the MCP and WebSocket endpoints and the command line. A `public/index.html` of your own
takes its place.

| Folder | What goes there |
|---|---|
| `actions/` | actions: a `name`, zod `inputs` and `run` (this folder and the three below are loaded at boot) |
| `initializers/` | boot work: `initialize`, `start`, `stop` |
| `middleware/` | action middleware: `runBefore`, `runAfter` |
| `channels/` | WebSocket channels and who may subscribe |
| `services/` | injectable services; not loaded at boot: made when a constructor first asks for one |
| `test/` | Jest tests |

`PORT` (default 8080) and `HOST` choose where the server listens.
{{databaseSection}}
