node_modules/
dist/
coverage/
.herald/
*.log
.env
.env.*
!.env.example
# What `npm pack` writes
*.tgz
