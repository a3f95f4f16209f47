node_modules/
dist/
coverage/
.herald/
*.log
