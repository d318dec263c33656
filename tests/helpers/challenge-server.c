/*
 * The test challenge in the test image (tests/helpers/docker.ts), compiled statically so the image
 * needs nothing but this file and busybox. One process per connection, like inetd, so many
 * connections are served at once (busybox's nc takes them one by one):
 *
 *   7000  writes $GZCTF_FLAG and a newline, then closes
 *   7001  echoes what it receives until the peer closes
 *   7002  writes $SOURCE_MIB MiB (default 64) of zeros, then closes
 *   7003  never reads and never writes (a peer that applies back-pressure)
 */
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int write_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, data, length);
    if (written <= 0) return -1;
    data += written;
    length -= (size_t)written;
  }
  return 0;
}

static void flag(int fd) {
  const char *value = getenv("GZCTF_FLAG");
  if (value) write_all(fd, value, strlen(value));
  write_all(fd, "\n", 1);
}

static void echo(int fd) {
  char buffer[65536];
  ssize_t length;
  while ((length = read(fd, buffer, sizeof buffer)) > 0)
    if (write_all(fd, buffer, (size_t)length) < 0) return;
}

static void source(int fd) {
  static char zeros[1 << 20];
  const char *mib = getenv("SOURCE_MIB");
  long count = mib ? atol(mib) : 64;
  for (long n = 0; n < count; n++)
    if (write_all(fd, zeros, sizeof zeros) < 0) return;
}

static void sink(int fd) {
  (void)fd;
  for (;;) pause();
}

static void listen_on(int port, void (*handle)(int)) {
  int server = socket(AF_INET, SOCK_STREAM, 0);
  int yes = 1;
  setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = INADDR_ANY};
  if (bind(server, (struct sockaddr *)&address, sizeof address) < 0 || listen(server, 1024) < 0) _exit(1);
  for (;;) {
    int client = accept(server, NULL, NULL);
    if (client < 0) continue;
    if (fork() == 0) {
      close(server);
      handle(client);
      shutdown(client, SHUT_WR);
      close(client);
      _exit(0);
    }
    close(client);
  }
}

int main(void) {
  /* Children are reaped by the kernel; a peer closing early must not kill a writer. */
  signal(SIGCHLD, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  static const struct {
    int port;
    void (*handle)(int);
  } services[] = {{7000, flag}, {7001, echo}, {7002, source}, {7003, sink}};
  for (size_t n = 0; n < sizeof services / sizeof services[0]; n++)
    if (fork() == 0) listen_on(services[n].port, services[n].handle);
  for (;;) pause();
}
