/*
 * h2bench's TCP splice for a site behind the link (harness/site-nat.js):
 * in the runner's private namespace, the link's client's TCP connections are
 * redirected here (iptables REDIRECT), accepted by this namespace's Linux TCP
 * stack, and each spliced byte for byte to its original destination
 * (SO_ORIGINAL_DST), which slirp4netns then reaches on the machine's own
 * path. Why: slirp4netns's user-mode TCP (libslirp) offers no window
 * scaling, so every TCP connection it terminates is held to 64 KiB a round
 * trip (rootless-containers/slirp4netns#171): behind a link of 100 ms that
 * is 640 KiB/s a connection, whatever the link's rate. Here the connection
 * that crosses the link is a Linux kernel's (window scaling, its congestion
 * control, initial window 10), as a site on a Linux server would have; the
 * hop from here to slirp4netns has no link delay, so its window costs
 * nothing. TLS and HTTP pass through untouched, end to end.
 *
 * Usage: h2bench-splice <port>: listens on 0.0.0.0:<port>, prints
 * "listening <port>" once it does, and runs until killed (it dies with its
 * parent: PR_SET_PDEATHSIG). One child process a connection, each ended with
 * its connection, reaped by the kernel (SIGCHLD ignored).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK (256 * 1024)
#ifndef SO_ORIGINAL_DST
#define SO_ORIGINAL_DST 80 /* linux/netfilter_ipv4.h, whose headers clash with glibc's */
#endif

static void nodelay (int fd)
{
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Copies what `from` has to `to`: 1 while open, 0 at its end of stream, -1 on an error. */
static int pump (int from, int to, char *buf)
{
  ssize_t n = read(from, buf, CHUNK);
  if (n == 0) return 0;
  if (n < 0) return errno == EINTR || errno == EAGAIN ? 1 : -1;
  for (ssize_t off = 0; off < n;) {
    ssize_t w = write(to, buf + off, (size_t)(n - off));
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    off += w;
  }
  return 1;
}

/* One connection: to its original destination, then both ways until both have ended. */
static void serve (int client)
{
  struct sockaddr_in dst;
  socklen_t len = sizeof dst;
  if (getsockopt(client, SOL_IP, SO_ORIGINAL_DST, &dst, &len) != 0) _exit(1);
  int server = socket(AF_INET, SOCK_STREAM, 0);
  if (server < 0 || connect(server, (struct sockaddr *)&dst, sizeof dst) != 0) _exit(1); /* the client sees a reset */
  nodelay(client);
  nodelay(server);
  char *buf = malloc(CHUNK);
  if (!buf) _exit(1);
  struct pollfd fds[2] = { { .fd = client, .events = POLLIN }, { .fd = server, .events = POLLIN } };
  int open[2] = { 1, 1 };
  while (open[0] || open[1]) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      _exit(1);
    }
    for (int i = 0; i < 2; i++) {
      if (!open[i] || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      int r = pump(fds[i].fd, fds[1 - i].fd, buf);
      if (r < 0) _exit(1);
      if (r == 0) {
        open[i] = 0;
        fds[i].fd = -1; /* poll skips it */
        shutdown(i == 0 ? server : client, SHUT_WR); /* the end of stream passed on */
      }
    }
  }
  _exit(0);
}

int main (int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s <port>\n", argv[0]);
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGCHLD, SIG_IGN); /* children reaped by the kernel */
  signal(SIGPIPE, SIG_IGN);
  int s = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in at = { .sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[1])), .sin_addr = { htonl(INADDR_ANY) } };
  if (bind(s, (struct sockaddr *)&at, sizeof at) != 0 || listen(s, 512) != 0) {
    perror("h2bench-splice: listen");
    return 1;
  }

  socklen_t len = sizeof at;
  getsockname(s, (struct sockaddr *)&at, &len);
  printf("listening %d\n", ntohs(at.sin_port));
  fflush(stdout);
  for (;;) {
    int c = accept(s, NULL, NULL);
    if (c < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      perror("h2bench-splice: accept");
      return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
      close(s);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      serve(c);
    }
    close(c);
  }
}
