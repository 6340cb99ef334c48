#!/bin/sh
# Serve banditviz to a class: one Streamlit process per `server 127.0.0.1:PORT;` line of deploy/nginx.conf, all with
# one cookie secret (any process accepts what another signed), behind nginx on port 8080 (deploy/nginx.conf: each
# browser kept on one process). Run from the repository root after `make install` (`make serve` does both); needs
# Debian's nginx (`apt-get install nginx`). Ctrl+C stops everything it started.
set -eu
PY=${PY:-.venv/bin/python}
PREFIX=$(pwd)/.nginx
STREAMLIT_SERVER_COOKIE_SECRET=$($PY -c 'import secrets; print(secrets.token_hex(24))')
export STREAMLIT_SERVER_COOKIE_SECRET  # Streamlit takes it from the environment (not from its command line)
PIDS=""
stop() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; }
trap stop EXIT INT TERM
for port in $(sed -n 's/^ *server 127\.0\.0\.1:\([0-9]*\);.*/\1/p' deploy/nginx.conf); do
    $PY -m streamlit run app.py --server.port "$port" --server.address 127.0.0.1 --server.headless true \
        --browser.gatherUsageStats false &
    PIDS="$PIDS $!"
done
mkdir -p "$PREFIX/logs" "$PREFIX/tmp" "$PREFIX/cache"
chmod a+rwx "$PREFIX/tmp" "$PREFIX/cache"  # nginx's workers run as another user when root starts it
echo "banditviz: http://$(hostname):8080/ (nginx, $(echo $PIDS | wc -w) Streamlit processes)"
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
"$NGINX" -p "$PREFIX" -c "$(pwd)/deploy/nginx.conf" -g "daemon off;" &
PIDS="$PIDS $!"
wait
