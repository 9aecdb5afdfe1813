import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites signed jars of the application's lib/ folder without their signature (META-INF/*.SF, *.DSA, *.RSA, *.EC)
 * and without the manifest's per-entry digests. Run by the build (app/pom.xml) on BouncyCastle's jars before the AOT
 * training: the JVM verifies a signed jar's signature before it loads the first class from it (about 0.2 s on this
 * project's 2-core machine, at every start of a command, since our certificate code is linked at start from the AOT
 * cache), and classes from signed jars cannot go in the AOT cache at all. Drainboard uses BouncyCastle only to build
 * certificates with the JDK's own providers, never as a JCE provider, so nothing relies on the signature.
 *
 * <p>Usage: {@code java UnsignJars.java JAR...}; a jar with no signature is left as it is.
 */
public final class UnsignJars {

    public static void main(String[] args) throws IOException {
        for (String arg : args) {
            Path jar = Path.of(arg);
            if (unsign(jar)) {
                System.out.println("unsigned " + jar.getFileName());
            }
        }
    }

    private static boolean unsign(Path jar) throws IOException {
        Path out = jar.resolveSibling(jar.getFileName() + ".unsigned");
        boolean signed = false;
        try (JarFile in = new JarFile(jar.toFile(), false);
             ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            Manifest manifest = in.getManifest();
            for (Enumeration<? extends ZipEntry> entries = in.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (isSignature(name)) {
                    signed = true;
                    continue;
                }
                ZipEntry copy = new ZipEntry(name);
                copy.setTime(entry.getTime());
                zip.putNextEntry(copy);
                if (name.equalsIgnoreCase(JarFile.MANIFEST_NAME) && manifest != null) {
                    Manifest mainOnly = new Manifest();
                    mainOnly.getMainAttributes().putAll((Attributes) manifest.getMainAttributes().clone());
                    mainOnly.write(zip);
                } else if (!entry.isDirectory()) {
                    try (var data = in.getInputStream(entry)) {
                        data.transferTo(zip);
                    }
                }
                zip.closeEntry();
            }
        }
        if (!signed) {
            Files.delete(out);
            return false;
        }
        Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    private static boolean isSignature(String name) {
        if (!name.startsWith("META-INF/") || name.indexOf('/', "META-INF/".length()) >= 0) {
            return false;
        }
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        return upper.endsWith(".SF") || upper.endsWith(".DSA") || upper.endsWith(".RSA") || upper.endsWith(".EC");
    }

    private UnsignJars() {
    }
}
