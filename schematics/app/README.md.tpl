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

| Folder | What goes there |
|---|---|
| `actions/` | actions: a `name`, zod `inputs` and `run` (this folder and the three below are loaded at boot) |
| `initializers/` | boot work: `initialize`, `start`, `stop` |
| `middleware/` | action middleware: `runBefore`, `runAfter` |
| `channels/` | WebSocket channels and who may subscribe |
| `services/` | injectable services; not loaded at boot: made when a constructor first asks for one |
| `test/` | Jest tests |

`PORT` (default 8080) and `HOST` choose where the server listens.
