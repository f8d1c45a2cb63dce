import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * mongo-java-server with its memory backend, announcing MongoDB 6.0 / wire version 17: the Node
 * driver 7 refuses the library's default (wire 8). Prints "listening <port>" once bound and exits
 * when its parent closes stdin, so a crashed test run never leaves a server behind.
 */
public final class TestMongoServer {
  private static final MongoVersion MONGO_6_0 = new MongoVersion() {
    @Override public List<Integer> getVersionArray() { return List.of(6, 0, 0); }
    @Override public int getWireVersion() { return 17; }
  };

  public static void main(String[] args) throws Exception {
    String host = args.length > 0 ? args[0] : "127.0.0.1";
    int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    MongoServer server = new MongoServer(new MemoryBackend().version(MONGO_6_0));
    server.bind(new InetSocketAddress(host, port));
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("listening " + server.getLocalAddress().getPort());
    System.out.flush();
    while (System.in.read() != -1) {
      // Keep serving until the parent goes away.
    }
    server.shutdownNow();
  }
}
