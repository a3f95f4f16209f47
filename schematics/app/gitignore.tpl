node_modules/
dist/
coverage/
.herald/
.data/
*.log
.env
.env.*
!.env.example
# What `npm pack` writes
*.tgz
