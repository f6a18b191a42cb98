import java.nio.channels.FileChannel; import java.nio.file.*; import java.nio.ByteBuffer;
public class T { public static void main(String[] a) throws Exception {
  FileChannel c = FileChannel.open(Path.of("/tmp/cli2exp/ff"), StandardOpenOption.READ, StandardOpenOption.WRITE);
  c.write(ByteBuffer.wrap("hello\n".getBytes())); System.out.println("wrote to fifo");
  var h = ProcessHandle.of(Long.parseLong(a[0])); System.out.println("zombie leader handle: " + h + " alive=" + h.map(ProcessHandle::isAlive));
  h.ifPresent(ProcessHandle::destroyForcibly); Thread.sleep(300);
  System.out.println("after destroy exists=" + Files.exists(Path.of("/proc/" + a[0])));
}}
