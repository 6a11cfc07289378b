#!/usr/bin/env bash
# Serves a folder with Debian's nginx on 127.0.0.1, for the HTTP transport's
# tests and measurements (Apps/Tests/ParallaxImagesHTTPTestSupport/NginxServer.swift).
#
#   scripts/nginx-loopback.sh start FOLDER [PORT]
#       Installs nginx if it is missing (apt-get, as root: `apt-get update`
#       first, then nginx-light, else nginx), writes an nginx.conf into a
#       new temporary prefix and starts nginx there, listening on
#       127.0.0.1:PORT, or on the first free port it finds when no PORT is
#       given. It returns once nginx accepts connections, having printed on
#       standard output, one per line:
#           port=PORT
#           log=ACCESS_LOG
#           prefix=PREFIX
#           pid=MASTER_PID
#           ready
#       Everything else (apt, nginx's own messages) goes to standard error or
#       PREFIX/error.log. Exit status 3: nginx is missing and cannot be
#       installed (not root, or apt failed); anything else non-zero: it did
#       not start (the reason on standard error).
#   scripts/nginx-loopback.sh check
#       Installs nginx if it is missing, as `start` does, and prints its path;
#       exit status 3 if it is missing and cannot be installed.
#   scripts/nginx-loopback.sh stop PREFIX
#       Stops that nginx (SIGTERM: open connections are closed, not
#       finished), waits for it to exit and removes PREFIX
#       (NGINX_KEEP_PREFIX=1 keeps it).
#
# Locations, all over FOLDER: /photos/ (an HTML autoindex, and the files),
# /json/ (autoindex_format json), /xml/ (autoindex_format xml), and /slow/
# (the files at NGINX_SLOW_RATE, default 4m bytes a second per request, so
# that a test can act in the middle of a body).
#
# The access log has one tab-separated line per request, written when the
# request ends (nginx logs a request whose client went away too):
#   $msec  $request_method  $request_uri  $status  $body_bytes_sent
#   $bytes_sent  $request_time  $connection  $http_range
# $bytes_sent counts the head too; $request_time is from the request's first
# byte to its end (for a client that gave up: to when nginx noticed).
set -euo pipefail

die() { echo "nginx-loopback: $1" >&2; exit "${2:-1}"; }

find_nginx() {
    if command -v nginx >/dev/null 2>&1; then command -v nginx
    elif [[ -x /usr/sbin/nginx ]]; then echo /usr/sbin/nginx
    else return 1
    fi
}

install_nginx() {
    [[ "$(id -u)" == 0 ]] || die "nginx is not installed and this is not root: run \`apt-get install -y nginx-light\` (or nginx) first" 3
    command -v apt-get >/dev/null 2>&1 || die "nginx is not installed and there is no apt-get to install it" 3
    echo "nginx-loopback: installing nginx-light (apt-get update first)" >&2
    # Keep the package's post-install from starting a system nginx on port 80.
    local policy=/usr/sbin/policy-rc.d made_policy=0
    if [[ ! -e "$policy" ]]; then
        printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && made_policy=1
    fi
    local status=0
    {
        DEBIAN_FRONTEND=noninteractive apt-get update -q &&
        { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx-light ||
          DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx; }
    } >&2 || status=$?
    [[ "$made_policy" == 1 ]] && rm -f "$policy"
    [[ "$status" == 0 ]] || die "apt-get could not install nginx-light or nginx (status $status)" 3
}

close_inherited_descriptors() {
    local fd
    for fd in /proc/$BASHPID/fd/*; do
        fd="${fd##*/}"
        if [[ "$fd" =~ ^[0-9]+$ && "$fd" -gt 2 ]]; then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
}

start() {
    local folder="${1:-}" wanted_port="${2:-}"
    [[ -n "$folder" && -d "$folder" ]] || die "usage: $0 start FOLDER [PORT] (FOLDER must be a directory)" 2
    folder="$(cd "$folder" && pwd -P)"
    local nginx
    nginx="$(find_nginx)" || { install_nginx; nginx="$(find_nginx)" || die "nginx still not found after installing" 3; }

    local prefix
    prefix="$(mktemp -d "${TMPDIR:-/tmp}/nginx-loopback.XXXXXX")"
    mkdir -p "$prefix/temp"
    # As root, workers run as root too, so that they read whatever the tests
    # made (temporary folders are 0700); nginx only listens on loopback.
    local user_line=""
    [[ "$(id -u)" == 0 ]] && user_line="user root;"

    local attempt port ports=()
    if [[ -n "$wanted_port" ]]; then
        ports=("$wanted_port")
    else
        for attempt in $(seq 1 40); do ports+=($(( 20000 + RANDOM % 40000 ))); done
    fi
    for port in "${ports[@]}"; do
        cat > "$prefix/nginx.conf" <<EOF
$user_line
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/error.log info;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    keepalive_timeout 65;
    client_body_temp_path $prefix/temp/body;
    proxy_temp_path $prefix/temp/proxy;
    log_format transport '\$msec\t\$request_method\t\$request_uri\t\$status\t\$body_bytes_sent\t\$bytes_sent\t\$request_time\t\$connection\t\$http_range';
    access_log $prefix/access.log transport;
    server {
        listen 127.0.0.1:$port;
        server_name localhost;
        location /photos/ { alias $folder/; autoindex on; }
        location /json/ { alias $folder/; autoindex on; autoindex_format json; }
        location /xml/ { alias $folder/; autoindex on; autoindex_format xml; }
        location /slow/ { alias $folder/; limit_rate ${NGINX_SLOW_RATE:-4m}; }
    }
}
EOF
        # Daemonizes once its socket is bound: status 0 means it listens. It
        # gets no descriptor of ours but the standard three, redirected: a
        # caller waiting for this script's output or exit (Foundation's
        # Process watches a socket it passes down) would otherwise wait for
        # nginx's exit.
        if ( close_inherited_descriptors
             exec "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" ) </dev/null >>"$prefix/nginx.out" 2>&1; then
            local pid="" tries
            for tries in $(seq 1 1000); do
                [[ -s "$prefix/nginx.pid" ]] && { pid="$(cat "$prefix/nginx.pid")"; break; }
                sleep 0.01
            done
            [[ -n "$pid" ]] || die "nginx started but wrote no pid file ($prefix)"
            # Readiness: a TCP connection is accepted.
            (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || die "nginx does not accept connections on 127.0.0.1:$port"
            printf 'port=%s\nlog=%s\nprefix=%s\npid=%s\nready\n' "$port" "$prefix/access.log" "$prefix" "$pid"
            return 0
        fi
        if ! grep -q "Address already in use" "$prefix/nginx.out" "$prefix/error.log" 2>/dev/null; then
            cat "$prefix/nginx.out" >&2 || true
            die "nginx did not start (prefix $prefix)"
        fi
        : > "$prefix/nginx.out"
    done
    rm -rf "$prefix"
    if [[ -n "$wanted_port" ]]; then die "port $wanted_port on 127.0.0.1 is in use"; fi
    die "no free port found for nginx on 127.0.0.1 (40 tried)"
}

stop() {
    local prefix="${1:-}"
    [[ -n "$prefix" && -d "$prefix" ]] || die "usage: $0 stop PREFIX" 2
    if [[ -s "$prefix/nginx.pid" ]]; then
        local pid
        pid="$(cat "$prefix/nginx.pid")"
        if kill -TERM "$pid" 2>/dev/null; then
            # Its exit is the event; the bound only turns a hang into an error.
            local tries
            for tries in $(seq 1 3000); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.01
            done
            kill -0 "$pid" 2>/dev/null && die "nginx ($pid) did not stop within 30 s"
        fi
    fi
    [[ "${NGINX_KEEP_PREFIX:-0}" == 1 ]] || rm -rf "$prefix"
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop) shift; stop "$@" ;;
    check) find_nginx || { install_nginx; find_nginx || die "nginx still not found after installing" 3; } ;;
    *) die "usage: $0 start FOLDER [PORT] | stop PREFIX | check" 2 ;;
esac
